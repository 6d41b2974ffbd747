package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// singleNodeTypes are receivers that talk to one node, where keys on
// different slots are legal; skipped unless -include-single-node is set.
var singleNodeTypes = map[string]bool{"Client": true, "Conn": true}

// singleNodeMakers are go-redis methods whose result talks to the node its
// receiver talks to.
var SingleNodeMakers = map[string]bool{"Pipeline": true, "TxPipeline": true, "Conn": true, "WithTimeout": true}

// singleNodeCallbacks are go-redis methods that call a function argument
// with a pipeline or transaction of their receiver's node.
var SingleNodeCallbacks = map[string]bool{"Pipelined": true, "TxPipelined": true, "Watch": true}

// onOneNode reports whether a client call surely talks to one node: a
// go-redis call on a single-node client (see singleNode), a redigo call in a
// package that reaches no cluster library built on redigo, a rueidis or
// valkey-go command built on a client forced to one node.
func (a *packageAnalysis) onOneNode(site *Site) bool {
	switch site.Library {
	case Redigo:
		return !a.reachesRedigoCluster()
	case Rueidis:
		return site.Builder != nil && ForcedSingle(site.Builder)
	}
	return a.singleNode(site.Receiver())
}

// reachesRedigoCluster reports whether the package imports, directly or
// not, a cluster library built on redigo.
func (a *packageAnalysis) reachesRedigoCluster() bool {
	if a.redigoCluster == nil {
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package) bool
		walk = func(p *types.Package) bool {
			if seen[p] {
				return false
			}
			seen[p] = true
			if RedigoClusterLibraries[p.Path()] {
				return true
			}
			for _, imp := range p.Imports() {
				if walk(imp) {
					return true
				}
			}
			return false
		}
		found := walk(a.pass.Pkg)
		a.redigoCluster = &found
	}
	return *a.redigoCluster
}

// singleNode reports whether a client value surely talks to one node: a
// *redis.Client or *redis.Conn, a struct embedding one, an interface holding
// one, a pipeline made from one, or the pipeline or transaction that one's
// Pipelined, TxPipelined or Watch passes to its callback. A client the
// function does not pin down (a parameter of interface type, a field) is
// not single-node: it is checked.
func (a *packageAnalysis) singleNode(v ssa.Value) bool {
	return a.singleNodeAt(v, 0)
}

const maxSingleNodeDepth = 8

func (a *packageAnalysis) singleNodeAt(v ssa.Value, depth int) bool {
	if v == nil || depth > maxSingleNodeDepth {
		return false
	}
	if IsSingleNodeType(v.Type()) {
		return true
	}
	depth++
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return a.singleNodeAt(v.X, depth)
	case *ssa.ChangeInterface:
		return a.singleNodeAt(v.X, depth)
	case *ssa.ChangeType:
		return a.singleNodeAt(v.X, depth)
	case *ssa.UnOp:
		// A method promoted from an embedded field is called on the field:
		// go-redis's commands are methods of an embedded cmdable.
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && IsEmbedded(fa.X.Type(), fa.Field) {
			return a.singleNodeAt(fa.X, depth)
		}
	case *ssa.Field:
		if IsEmbedded(v.X.Type(), v.Field) {
			return a.singleNodeAt(v.X, depth)
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !a.singleNodeAt(e, depth) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.Call:
		if site := GoRedisMethod(&v.Call); site != nil && SingleNodeMakers[site.Name()] {
			return a.singleNodeAt(ReceiverValue(&v.Call), depth)
		}
	case *ssa.Parameter:
		return a.callbackOfSingleNode(v.Parent(), depth)
	}
	return false
}

// callbackOfSingleNode reports whether fn is a function literal passed to
// Pipelined, TxPipelined or Watch of a single-node client.
func (a *packageAnalysis) callbackOfSingleNode(fn *ssa.Function, depth int) bool {
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	found := false
	for call := range CallsIn(parent) {
		common := call.Common()
		m := GoRedisMethod(common)
		if m == nil || !SingleNodeCallbacks[m.Name()] {
			continue
		}
		for _, arg := range common.Args {
			if IsFunc(arg, fn) {
				if !a.singleNodeAt(ReceiverValue(common), depth) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

func IsFunc(v ssa.Value, fn *ssa.Function) bool {
	if mc, ok := v.(*ssa.MakeClosure); ok {
		return mc.Fn == fn
	}
	return v == fn
}

// calledFunc is the function or method a call calls: an interface's method
// for a call through an interface, else the static callee's; nil for calls
// of function values and builtins.
func CalledFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if fn := common.StaticCallee(); fn != nil {
		m, _ := fn.Object().(*types.Func)
		return m
	}
	return nil
}

// methodOf is the go-redis method a call calls, nil for anything else.
func GoRedisMethod(common *ssa.CallCommon) *types.Func {
	m := CalledFunc(common)
	if m == nil || m.Pkg() == nil || !GoRedisPackages[m.Pkg().Path()] || m.Signature().Recv() == nil {
		return nil
	}
	return m
}

// receiverValue is the value a method call is called on.
func ReceiverValue(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if len(common.Args) > 0 {
		return common.Args[0]
	}
	return nil
}

func IsEmbedded(t types.Type, i int) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && i < st.NumFields() && st.Field(i).Anonymous()
}

func IsSingleNodeType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	return GoRedisPackages[named.Obj().Pkg().Path()] && singleNodeTypes[named.Obj().Name()]
}

// clientParam is the 1-based index of the parameter a client value is
// (see clientRoot), 0 if it is not a parameter.
func ClientParam(v ssa.Value) int {
	if p, ok := ClientRoot(v).(*ssa.Parameter); ok {
		return ParamIndex(p)
	}
	return 0
}

// clientRoot is the value a client value comes from, through interface
// conversions and embedded fields (go-redis's commands are methods of an
// embedded cmdable): the parameter, the TxPipeline() call, and so on.
func ClientRoot(v ssa.Value) ssa.Value {
	for depth := 0; depth < maxSingleNodeDepth; depth++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok || x.Op != token.MUL || !IsEmbedded(fa.X.Type(), fa.Field) {
				return v
			}
			v = fa.X
		case *ssa.Field:
			if !IsEmbedded(x.X.Type(), x.Field) {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
	return v
}
