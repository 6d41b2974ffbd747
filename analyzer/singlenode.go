package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// onOneNode reports whether a client call surely talks to one node: a
// go-redis call on a single-node client (see singleNode), a redigo call in a
// package that reaches no cluster library built on redigo, a rueidis or
// valkey-go command built on a client forced to one node.
func (a *packageAnalysis) onOneNode(site *clients.Site) bool {
	switch site.Library {
	case clients.Redigo:
		return !a.reachesRedigoCluster()
	case clients.Rueidis:
		return site.Builder != nil && clients.ForcedSingle(site.Builder)
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

// maxSingleNodeDepth bounds how far singleNode follows a client value.
const maxSingleNodeDepth = 8

func (a *packageAnalysis) singleNodeAt(v ssa.Value, depth int) bool {
	if v == nil || depth > maxSingleNodeDepth {
		return false
	}
	if clients.IsSingleNodeType(v.Type()) {
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
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && ssaread.IsEmbedded(fa.X.Type(), fa.Field) {
			return a.singleNodeAt(fa.X, depth)
		}
	case *ssa.Field:
		if ssaread.IsEmbedded(v.X.Type(), v.Field) {
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
		if site := clients.GoRedisMethod(&v.Call); site != nil && clients.SingleNodeMakers[site.Name()] {
			return a.singleNodeAt(ssaread.ReceiverValue(&v.Call), depth)
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
	for call := range ssaread.CallsIn(parent) {
		common := call.Common()
		m := clients.GoRedisMethod(common)
		if m == nil || !clients.SingleNodeCallbacks[m.Name()] {
			continue
		}
		for _, arg := range common.Args {
			if ssaread.IsFunc(arg, fn) {
				if !a.singleNodeAt(ssaread.ReceiverValue(common), depth) {
					return false
				}
				found = true
			}
		}
	}
	return found
}
