package topology

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// LeftOutSite reports a client call the checks leave out: one that surely
// talks to one node (a go-redis call on a single-node client, see
// singleNode; a redigo call in a package that reaches no cluster library
// built on redigo, or on a connection of a pool that dials one server; a rueidis or valkey-go command built on a client forced
// to one node), unless the options include single-node clients; or one
// that only runs where the code ruled a cluster client out (see
// LeftOutCall).
func (r *Reader) LeftOutSite(site *clients.Site) bool {
	switch site.Library {
	case clients.Redigo:
		return r.LeftOut(!r.reachesRedigoCluster() || r.Is(site.Client(), OneServer))
	case clients.Rueidis:
		return site.Builder != nil && r.LeftOutCall(site.Call, clients.BuilderClient(site.Builder))
	}
	return r.LeftOutCall(site.Call, site.Client())
}

// SkippedAsSingleNode reports a client call left out only because its
// client talks to one server: the options that include single-node clients
// would check it. The plain run counts them, so that a team on one server
// today learns what the checks did not look at.
func (r *Reader) SkippedAsSingleNode(site *clients.Site) bool {
	if r.includeSingleNode || r.proxy || !r.LeftOutSite(site) {
		return false
	}
	r.includeSingleNode = true
	defer func() { r.includeSingleNode = false }()
	return !r.LeftOutSite(site)
}

// SkippedCallAsSingleNode is SkippedAsSingleNode for a call that opens a
// transaction on client.
func (r *Reader) SkippedCallAsSingleNode(call ssa.CallInstruction, client ssa.Value) bool {
	if r.includeSingleNode || r.proxy || !r.LeftOutCall(call, client) {
		return false
	}
	r.includeSingleNode = true
	defer func() { r.includeSingleNode = false }()
	return !r.LeftOutCall(call, client)
}

// guardedOnOneNode reports a call that only runs where a type assertion or
// type switch on its client ruled a cluster client out, or ruled a
// single-node client in, or where a rueidis or valkey-go client's Mode()
// said it is not a cluster's:
//
//	if _, ok := c.rdb.(*redis.ClusterClient); ok { ... } else { c.rdb.MGet(ctx, keys...) }
//	if c.rdb.Mode() != rueidis.ClientModeCluster { c.rdb.Do(ctx, c.rdb.B().Keys().Pattern("*").Build()) }
//
// The assertion and the call are on the same client: one value, or loads of
// one field of one value.
func guardedOnOneNode(call ssa.Instruction, client ssa.Value) bool {
	return typeChecked(call, client, false)
}

// guardedOnCluster reports a call that only runs where a type assertion or
// type switch on its client ruled a cluster client in: the ok branch of
// c.rdb.(*redis.ClusterClient), its case of a type switch, the branch where
// a rueidis or valkey-go client's Mode() is ClientModeCluster. The check
// decides that call alone: a call of the same client in another function,
// or one the check does not dominate, is judged as if it did not exist.
func guardedOnCluster(call ssa.Instruction, client ssa.Value) bool {
	return typeChecked(call, client, true)
}

// typeChecked reports a call in a branch of a check of its client's kind
// (see guardedOnOneNode, guardedOnCluster) where the check says the client
// is a cluster client (cluster) or is not one: the branch has the check's
// block alone before it and dominates the call's block, in the call's own
// function.
func typeChecked(call ssa.Instruction, client ssa.Value, cluster bool) bool {
	if call == nil || client == nil || call.Block() == nil {
		return false
	}
	for _, b := range call.Parent().Blocks {
		branch, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond, negated := branch.Cond, false
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond, negated = not.X, true
		}
		checked, isCluster, oneNode, differ, ok := kindCheck(cond)
		if !ok || !SameClient(checked, client) {
			continue
		}
		holds, fails := b.Succs[0], b.Succs[1]
		if negated != differ {
			holds, fails = fails, holds
		}
		var branchOf *ssa.BasicBlock // the branch where the check says what is asked
		switch {
		case isCluster && cluster:
			branchOf = holds
		case isCluster:
			branchOf = fails
		case oneNode && !cluster:
			branchOf = holds
		default:
			continue
		}
		if len(branchOf.Preds) == 1 && branchOf.Dominates(call.Block()) {
			return true
		}
	}
	return false
}

// kindCheck reads a condition that tells a client's kind: the ok of a type
// assertion (or a type switch's case) to a cluster client type or a
// single-node one, or a rueidis or valkey-go client's Mode() compared with
// a mode. isCluster: the check holds on a cluster client, and only there;
// oneNode: it holds only on a client of one node; differ: the condition
// is the check's opposite (Mode() != ClientModeCluster).
func kindCheck(cond ssa.Value) (client ssa.Value, isCluster, oneNode, differ, ok bool) {
	if ok2, isExtract := cond.(*ssa.Extract); isExtract && ok2.Index == 1 {
		assert, isAssert := ok2.Tuple.(*ssa.TypeAssert)
		if !isAssert {
			return nil, false, false, false, false
		}
		return assert.X, clients.IsClusterClientType(assert.AssertedType), clients.IsSingleNodeType(assert.AssertedType), false, true
	}
	c, mode, equal, isMode := clients.ModeCheck(cond)
	if !isMode {
		return nil, false, false, false, false
	}
	switch {
	case mode == "cluster":
		return c, true, false, !equal, true
	case (mode == "standalone" || mode == "sentinel") && equal:
		return c, false, true, false, true
	}
	// Mode() != standalone: a cluster, or a sentinel's one master.
	return nil, false, false, false, false
}

// storedOnOneNode: a client stored into a field or variable where a guard
// ruled a cluster client out (a constructor that refuses one).
func storedOnOneNode(st *ssa.Store) bool {
	return guardedOnOneNode(st, st.Val)
}

// sameClient reports two values that are one client (see clientKey).
func SameClient(x, y ssa.Value) bool {
	return ClientKey(x) == ClientKey(y)
}

// clientKey is what one client is in a function: a value through interface
// conversions, or a field of one (field -1: the value itself). Each q.conn
// is a load of its own, and so is each q once a closure captures it: the
// loads of one variable are one client.
func ClientKey(v ssa.Value) FieldLoad {
	root := variableOf(clients.ClientRoot(v))
	if f, ok := fieldOf(root); ok {
		return FieldLoad{base: variableOf(clients.ClientRoot(f.base)), field: f.field}
	}
	return FieldLoad{base: root, field: -1}
}

// variableOf is the local variable v is a load of, or v.
func variableOf(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			return alloc
		}
	}
	return v
}

// reachesRedigoCluster reports whether the package imports, directly or
// not, a cluster library built on redigo.
func (r *Reader) reachesRedigoCluster() bool {
	if r.redigoCluster == nil {
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package) bool
		walk = func(p *types.Package) bool {
			if seen[p] {
				return false
			}
			seen[p] = true
			if clients.RedigoClusterLibraries[p.Path()] {
				return true
			}
			for _, imp := range p.Imports() {
				if walk(imp) {
					return true
				}
			}
			return false
		}
		found := walk(r.pkg)
		r.redigoCluster = &found
	}
	return *r.redigoCluster
}

// singleNode reports whether a client value surely talks to one node: a
// *redis.Client or *redis.Conn, a struct embedding one, an interface holding
// one, a pipeline made from one, the pipeline or transaction that one's
// Pipelined, TxPipelined or Watch passes to its callback (directly, or
// through a function that runs its parameter so), a field the package only
// ever sets to such values, what a function that returns one returns, or
// the one node of a rueidis or valkey-go client forced to one server. A
// client the function does not pin down (a parameter of interface type, a
// field set from elsewhere) is not single-node: it is checked.
func (r *Reader) singleNode(v ssa.Value) bool {
	return r.singleNodeAt(v, 0)
}

// maxSingleNodeDepth bounds how far singleNode follows a client value.
const maxSingleNodeDepth = 8

func (r *Reader) singleNodeAt(v ssa.Value, depth int) bool {
	return r.AllOrigins(v, depth, r.singleNodeOrigin, storedOnOneNode)
}

// singleNodeOrigin: v itself talks to one node, whatever it came from.
func (r *Reader) singleNodeOrigin(v ssa.Value, depth int) bool {
	if clients.IsSingleNodeType(v.Type()) || clients.MakesSentinelClient(v) {
		return true
	}
	if clients.IsRedigoConn(v.Type()) && !r.reachesRedigoCluster() {
		return true // no cluster library built on redigo: every connection is to one server
	}
	if clients.MakesOneServerPool(v) {
		return true
	}
	switch v := v.(type) {
	case *ssa.Extract:
		if c := nodesOf(v); c != nil {
			return r.singleNodeAt(c, depth+1) // the one node of a client forced to one server
		}
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if clients.MakesSingleNodeClient(call, r.Eval) {
				return true
			}
			return r.callees.ReturnsSingleNode(&call.Call)
		}
	case *ssa.Call:
		if site := clients.GoRedisMethod(&v.Call); site != nil && clients.SingleNodeMakers[site.Name()] {
			return r.singleNodeAt(ssaread.ReceiverValue(&v.Call), depth+1)
		}
		if clients.MakesSingleNodeClient(v, r.Eval) {
			return true
		}
		return r.callees.ReturnsSingleNode(&v.Call)
	case *ssa.Parameter:
		return r.callbackOfSingleNode(v.Parent(), depth+1) || r.singleNodeFromCallers(v, depth+1)
	}
	return false
}

// singleNodeFromCallers reports a parameter of an unexported function that
// no other package can call and that the package uses only by calling it,
// each call passing a single-node client: makeStore(ctx, newClient()).
func (r *Reader) singleNodeFromCallers(p *ssa.Parameter, depth int) bool {
	if known, ok := r.paramsFromCallers[p]; ok {
		return known
	}
	r.paramsFromCallers[p] = false // while it is decided: a cycle of calls proves nothing
	known := r.singleNodeCallers(p, depth)
	r.paramsFromCallers[p] = known
	return known
}

func (r *Reader) singleNodeCallers(p *ssa.Parameter, depth int) bool {
	fn := p.Parent()
	literal := fn.Parent() != nil
	if !literal && (fn.Object() == nil || fn.Object().Exported() || fn.Signature.Recv() != nil) {
		return false
	}
	index := slices.Index(fn.Params, p)
	if literal {
		calls, ok := literalCalls(fn)
		if !ok || len(calls) == 0 {
			return false
		}
		for _, call := range calls {
			// A function literal's caller may hand it a client a type
			// check ruled a cluster out: scan(ctx, s.rdb) where
			// s.rdb.(*redis.ClusterClient) failed, scan(ctx, node) per node.
			if index >= len(call.Call.Args) {
				return false
			}
			arg := call.Call.Args[index]
			if !r.singleNodeAt(arg, depth) && !guardedOnOneNode(call, arg) {
				return false
			}
		}
		return true
	}
	calls := 0
	for _, g := range r.funcs {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(nil) {
					if *op != fn {
						continue
					}
					call, ok := instr.(*ssa.Call)
					if !ok || call.Call.Value != fn || index >= len(call.Call.Args) {
						return false // taken as a value: called from anywhere
					}
					if !r.singleNodeAt(call.Call.Args[index], depth) {
						return false
					}
					calls++
				}
			}
		}
	}
	return calls > 0
}

// literalCalls lists the calls of a function literal without captured
// values, held in a local variable (scan := func(...) {...}) that is only
// called, in its function or in the literals inside it that capture it;
// ok is false when the literal or the variable is used otherwise.
func literalCalls(fn *ssa.Function) ([]*ssa.Call, bool) {
	if len(fn.FreeVars) > 0 {
		return nil, false // a closure: made as a value of its own, not followed
	}
	parent := fn.Parent()
	var cell *ssa.Alloc
	var calls []*ssa.Call
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if *op != ssa.Value(fn) {
					continue
				}
				switch instr := instr.(type) {
				case *ssa.Call:
					if instr.Call.Value != ssa.Value(fn) {
						return nil, false
					}
					calls = append(calls, instr)
				case *ssa.Store:
					alloc, ok := instr.Addr.(*ssa.Alloc)
					if !ok || cell != nil {
						return nil, false
					}
					cell = alloc
				default:
					return nil, false
				}
			}
		}
	}
	if cell == nil {
		return calls, true
	}
	// The variable's loads, here and through the literals that capture it.
	var loadsOf func(v ssa.Value) bool
	loadsOf = func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Val == ssa.Value(fn) && ref.Addr == v {
					continue
				}
				return false // assigned another function, or stored elsewhere
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
				for _, use := range *ref.Referrers() {
					call, ok := use.(*ssa.Call)
					if !ok || call.Call.Value != ssa.Value(ref) {
						return false
					}
					calls = append(calls, call)
				}
			case *ssa.MakeClosure:
				inner, ok := ref.Fn.(*ssa.Function)
				if !ok {
					return false
				}
				for i, b := range ref.Bindings {
					if b == v && !loadsOf(inner.FreeVars[i]) {
						return false
					}
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
		return true
	}
	if !loadsOf(cell) {
		return nil, false
	}
	return calls, true
}

// callbackOfSingleNode reports whether fn is a function literal that its
// enclosing function passes as the callback of a single-node client's
// Pipelined, TxPipelined or Watch, or to a function that runs it so, and to
// nothing that runs it on another client.
func (r *Reader) callbackOfSingleNode(fn *ssa.Function, depth int) bool {
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	found := false
	for call := range ssaread.CallsIn(parent) {
		common := call.Common()
		for j, arg := range common.Args {
			if !ssaread.IsFunc(arg, fn) {
				continue
			}
			switch onOne, callback := r.runsCallback(common, j, depth); {
			case callback && !onOne:
				return false
			case callback:
				found = true
			}
		}
	}
	return found
}

// runsCallback says whether a call runs its argument j as the callback of a
// client's Pipelined, TxPipelined or Watch (a go-redis method, or a function
// whose summary says it runs that parameter so on one node), and whether
// that client talks to one node.
func (r *Reader) runsCallback(common *ssa.CallCommon, j, depth int) (onOneNode, callback bool) {
	if m := clients.GoRedisMethod(common); m != nil && clients.SingleNodeCallbacks[m.Name()] {
		return r.singleNodeAt(ssaread.ReceiverValue(common), depth), true
	}
	if r.callees.RunsOnSingleNode(common, j) {
		return true, true
	}
	return false, false
}

// singleNodeCallbackParams lists fn's function parameters that it runs as
// the callback of a single-node client (see runsCallback), for its callers'
// function literals.
func (r *Reader) SingleNodeCallbackParams(fn *ssa.Function) []int {
	var out []int
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		for j, arg := range common.Args {
			p, ok := arg.(*ssa.Parameter)
			if !ok || p.Parent() != fn || slices.Contains(out, ssaread.ParamIndex(p)) {
				continue
			}
			if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc {
				continue
			}
			if onOne, callback := r.runsCallback(common, j, 0); callback && onOne {
				out = append(out, ssaread.ParamIndex(p))
			}
		}
	}
	return out
}

// returnsSingleNode: fn returns a client value (a go-redis type or any
// interface) and every return of it talks to one node.
func (r *Reader) ReturnsSingleNode(fn *ssa.Function) bool {
	results := fn.Signature.Results()
	if results.Len() == 0 {
		return false
	}
	t := results.At(0).Type()
	if _, isInterface := t.Underlying().(*types.Interface); !isInterface && !clients.IsGoRedisType(t) || types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	found := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if k, isConst := ret.Results[0].(*ssa.Const); isConst && k.IsNil() {
			continue // no client at all (an error path)
		}
		if !r.singleNode(ret.Results[0]) {
			return false
		}
		found = true
	}
	return found
}
