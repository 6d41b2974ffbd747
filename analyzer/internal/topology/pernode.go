package topology

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

// perNode reports a client value that is one node of a cluster client, and
// that the code uses as such: the client a cluster client's ForEachMaster,
// ForEachShard or ForEachSlave (go-redis) or EachNode (redisc) passes to
// its callback; an element of a rueidis or valkey-go client's Nodes(); or a
// go-redis single-node client asserted from an interface (the
// *redis.Client branch of a type switch, beside a *redis.ClusterClient
// branch that runs per master).
func (r *Reader) perNode(v ssa.Value) bool {
	return r.AllOrigins(v, 0, func(v ssa.Value, _ int) bool {
		switch v := v.(type) {
		case *ssa.Parameter:
			return r.nodeOfCallback(v)
		case *ssa.Extract:
			if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
				return assertedSingleNode(ta) // c, ok := u.(*redis.Client), a type switch's case
			}
			return nodesOf(v) != nil
		case *ssa.TypeAssert:
			return assertedSingleNode(v)
		}
		return false
	}, nil)
}

// clusterNode reports a client value that is one node of a cluster, as a
// cluster client hands it out (ForEachMaster's callback, an element of
// Nodes()): its type says one server, but the node refuses keys of
// different slots in one command as the cluster does, and serves only its
// own slots. The one node of a client forced to one server
// (ForceSingleClient) is that server.
func (r *Reader) clusterNode(v ssa.Value) bool {
	return r.AllOrigins(v, 0, func(v ssa.Value, depth int) bool {
		switch v := v.(type) {
		case *ssa.Parameter:
			return r.nodeOfCallback(v)
		case *ssa.Extract:
			c := nodesOf(v)
			return c != nil && !r.singleNodeAt(c, depth+1)
		}
		return false
	}, nil)
}

// assertedSingleNode reports a single-node client asserted from an
// interface: the code has told it apart from a cluster client.
func assertedSingleNode(ta *ssa.TypeAssert) bool {
	return clients.IsSingleNodeType(ta.AssertedType) && types.IsInterface(ta.X.Type())
}

// nodeOfCallback reports a parameter of a function literal that its
// enclosing function passes only to per-node callbacks, at the parameter's
// place.
func (r *Reader) nodeOfCallback(p *ssa.Parameter) bool {
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
			if runner := common.StaticCallee(); runner != nil && !clients.IsClientMethod(m) && r.runsPerNode(runner, j, index) {
				found = true
				continue
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

// nodesOf is the client whose Nodes() a value ranges over (rueidis,
// valkey-go): c in for _, node := range c.Nodes(); nil for any other value.
func nodesOf(x *ssa.Extract) ssa.Value {
	next, ok := x.Tuple.(*ssa.Next)
	if !ok || x.Index != 2 {
		return nil
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil
	}
	call, ok := rng.X.(*ssa.Call)
	if !ok {
		return nil
	}
	m := ssaread.CalledFunc(&call.Call)
	if m == nil || m.Name() != "Nodes" || !clients.IsClientMethod(m) {
		return nil
	}
	return ssaread.ReceiverValue(&call.Call)
}

// runsPerNode reports a function of the package that runs its function
// parameter number k (as SSA numbers the arguments of a call of it) only
// with one node's client at the callback's parameter index: a cluster's
// node (its own ForEachMaster's callback passing the shard on), or a client
// a type check ruled a cluster client out for:
//
//	func forEachNode(ctx context.Context, db redis.UniversalClient, fn func(context.Context, redis.Cmdable) error) error {
//		if cluster, ok := db.(*redis.ClusterClient); ok {
//			return cluster.ForEachMaster(ctx, func(ctx context.Context, shard *redis.Client) error { return fn(ctx, shard) })
//		}
//		return fn(ctx, db)
//	}
func (r *Reader) runsPerNode(fn *ssa.Function, k, index int) bool {
	if !r.Eval.Work().Enter() {
		return false
	}
	defer r.Eval.Work().Leave()
	if k >= len(fn.Params) || fn.Blocks == nil || r.runners[fn] {
		return false
	}
	r.runners[fn] = true // in progress: a runner that recurses is no runner
	defer delete(r.runners, fn)
	param := fn.Params[k]
	cell := capturedIn(param) // a closure captures it through a cell
	found := false
	bodies := append([]*ssa.Function{fn}, fn.AnonFuncs...)
	for _, g := range bodies {
		for call := range ssaread.CallsIn(g) {
			common := call.Common()
			if !isOrCaptures(common.Value, param, cell) {
				continue
			}
			if index >= len(common.Args) {
				return false
			}
			arg := common.Args[index]
			if !r.perNode(arg) && !guardedOnOneNode(call, arg) {
				return false
			}
			found = true
		}
	}
	// Passed on or kept anywhere else, it may run with any client.
	onlyCalled := func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case ssa.CallInstruction:
				if ref.Common().Value == v {
					continue
				}
				// Passed on to another runner, at its callback's place.
				inner := ref.Common().StaticCallee()
				j := slices.Index(ref.Common().Args, v)
				if inner == nil || j < 0 || !r.runsPerNode(inner, j, index) {
					return false
				}
				found = true
			case *ssa.MakeClosure:
			case *ssa.Store:
				if ref.Addr != ssa.Value(cell) || cell == nil {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !onlyCalled(param) {
		return false
	}
	if cell != nil {
		for _, ref := range *cell.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store, *ssa.MakeClosure:
			case *ssa.UnOp:
				if !onlyCalled(ref) {
					return false
				}
			default:
				return false
			}
		}
	}
	return found
}

// capturedIn is the cell a parameter is stored into for closures to
// capture (*t0 = fn), nil if none.
func capturedIn(p *ssa.Parameter) *ssa.Alloc {
	for _, ref := range *p.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == ssa.Value(p) {
			if a, ok := st.Addr.(*ssa.Alloc); ok {
				return a
			}
		}
	}
	return nil
}

// isOrCaptures: v is p, or a load of the cell it lives in, in its
// function or in a closure that captured the cell.
func isOrCaptures(v ssa.Value, p *ssa.Parameter, cell *ssa.Alloc) bool {
	if v == ssa.Value(p) {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || cell == nil {
		return false
	}
	x := load.X
	for range 8 {
		if x == ssa.Value(cell) {
			return true
		}
		fv, ok := x.(*ssa.FreeVar)
		if !ok {
			return false
		}
		bound := ssaread.ClosureBindings(fv)
		if len(bound) == 0 {
			return false
		}
		x = bound[0]
	}
	return false
}
