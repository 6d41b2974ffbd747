package reading

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Per-node code is the fix for a keyspace-wide command on a cluster: the
// client a cluster client hands out for one of its nodes is the one node the
// command is meant for. It is not reported as onenode or keyspace, even when
// the configuration includes single-node clients.

// perNodeCallbacks are the cluster clients' methods that run a callback on
// each node, by the index of the callback among the call's arguments
// (receiver first, as SSA numbers them) and of the node's client among the
// callback's parameters.
var perNodeCallbacks = map[string][2]int{
	"ForEachMaster": {2, 1}, "ForEachShard": {2, 1}, "ForEachSlave": {2, 1}, "ForEachReplica": {2, 1}, // go-redis: fn(ctx, client)
	"EachNode": {2, 1}, // redisc: fn(addr, conn)
}

// PerNode reports a client value that is one node of a cluster client, and
// that the code uses as such: the client a cluster client's ForEachMaster,
// ForEachShard or ForEachSlave (go-redis) or EachNode (redisc) passes to
// its callback; an element of a rueidis or valkey-go client's Nodes(); or a
// go-redis single-node client asserted from an interface (the
// *redis.Client branch of a type switch, beside a *redis.ClusterClient
// branch that runs per master).
func (r *Package) PerNode(v ssa.Value) bool {
	return r.allOrigins(v, 0, func(v ssa.Value, _ int) bool {
		switch v := v.(type) {
		case *ssa.Parameter:
			return r.nodeOfCallback(v)
		case *ssa.Extract:
			if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
				return assertedSingleNode(ta) // c, ok := u.(*redis.Client), a type switch's case
			}
			return nodesElement(v)
		case *ssa.TypeAssert:
			return assertedSingleNode(v)
		}
		return false
	})
}

// assertedSingleNode reports a single-node client asserted from an
// interface: the code has told it apart from a cluster client.
func assertedSingleNode(ta *ssa.TypeAssert) bool {
	return clients.IsSingleNodeType(ta.AssertedType) && types.IsInterface(ta.X.Type())
}

// nodeOfCallback reports a parameter of a function literal that its
// enclosing function passes only to per-node callbacks, at the parameter's
// place.
func (r *Package) nodeOfCallback(p *ssa.Parameter) bool {
	fn := p.Parent()
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	index := -1
	for i, q := range fn.Params {
		if q == p {
			index = i
		}
	}
	found := false
	for call := range ssaread.CallsIn(parent) {
		common := call.Common()
		for j, arg := range common.Args {
			if !ssaread.IsFunc(arg, fn) {
				continue
			}
			m := ssaread.CalledFunc(common)
			if m == nil || common.IsInvoke() {
				return false
			}
			at, ok := perNodeCallbacks[m.Name()]
			if !ok || !clients.IsClientMethod(m) || j != at[0] || index != at[1] {
				return false // run by something else too, or not as a node
			}
			found = true
		}
	}
	return found
}

// nodesElement reports a value of ranging over a client's Nodes() (rueidis,
// valkey-go): for _, node := range c.Nodes().
func nodesElement(x *ssa.Extract) bool {
	next, ok := x.Tuple.(*ssa.Next)
	if !ok || x.Index != 2 {
		return false
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return false
	}
	call, ok := rng.X.(*ssa.Call)
	if !ok {
		return false
	}
	m := ssaread.CalledFunc(&call.Call)
	return m != nil && m.Name() == "Nodes" && clients.IsClientMethod(m)
}

// Forwards reports a call that passes on what its function was given: an
// argument (or the builder's, for rueidis) is, or is built from, a
// parameter of the enclosing function other than its receiver and a
// context. A library's Keys(pattern) method, a mock's ExpectKeys(pattern):
// the command is its callers', which may or may not hold a cluster client.
func Forwards(site *clients.Site) bool {
	var values []ssa.Value
	for _, a := range site.Common.Args[site.RecvArgs():] {
		values = append(values, a)
	}
	seen := map[ssa.Value]bool{}
	for len(values) > 0 {
		v := values[len(values)-1]
		values = values[:len(values)-1]
		if v == nil || seen[v] {
			continue
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter:
			fn := v.Parent()
			if fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == v {
				continue // the receiver: the library's own object
			}
			if isContext(v.Type()) {
				continue
			}
			return true
		case *ssa.FreeVar:
			values = append(values, closureBindings(v)...) // what the enclosing function captured
		case *ssa.UnOp:
			if v.Op == token.MUL {
				values = append(values, v.X) // a captured variable's load
			}
		case *ssa.MakeInterface:
			values = append(values, v.X)
		case *ssa.ChangeType:
			values = append(values, v.X)
		case *ssa.Convert:
			values = append(values, v.X)
		case *ssa.BinOp:
			values = append(values, v.X, v.Y)
		case *ssa.Slice:
			values = append(values, v.X)
		case *ssa.Call:
			// fmt.Sprintf(pattern, ...), strings.Join, a builder's chain (a
			// static method's receiver is its first argument; the client
			// an interface's B() is called on is not followed)
			values = append(values, v.Call.Args...)
		case *ssa.Alloc:
			for _, ref := range *v.Referrers() {
				if ia, ok := ref.(*ssa.IndexAddr); ok {
					for _, use := range *ia.Referrers() {
						if st, ok := use.(*ssa.Store); ok && st.Addr == ia {
							values = append(values, st.Val) // a variadic argument's elements
						}
					}
				}
			}
		}
	}
	return false
}

// closureBindings are the values the enclosing function binds to a
// closure's free variable: the captured value, or the variable it lives in
// and what is stored there.
func closureBindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	index := slices.Index(fn.FreeVars, fv)
	if index < 0 || fn.Parent() == nil {
		return nil
	}
	var out []ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || index >= len(mc.Bindings) {
				continue
			}
			bound := mc.Bindings[index]
			out = append(out, bound)
			if alloc, ok := bound.(*ssa.Alloc); ok {
				for _, ref := range *alloc.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	return out
}

// isContext reports a context.Context.
func isContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// Records reports a call whose command object is kept in a struct field
// rather than read: a mock that builds expected commands (redismock's
// e.cmd = m.factory.FlushAll(ctx)), not code that runs them.
func Records(site *clients.Site) bool {
	v, ok := site.Call.(*ssa.Call)
	if !ok {
		return false
	}
	values := []ssa.Value{v}
	for len(values) > 0 {
		x := values[0]
		values = values[1:]
		if x.Referrers() == nil {
			continue
		}
		for _, ref := range *x.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if _, field := ref.Addr.(*ssa.FieldAddr); field && ref.Val == x {
					return true
				}
			case *ssa.MakeInterface: // stored as a redis.Cmder
				values = append(values, ref)
			case *ssa.ChangeInterface:
				values = append(values, ref)
			}
		}
	}
	return false
}
