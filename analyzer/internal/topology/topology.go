package topology

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A Topology is what a client value talks to, as far as the package shows.
// No field set: it may be a cluster or one server.
type Topology struct {
	// OneServer: surely one server (see singleNode), not a cluster's node.
	OneServer bool
	// Cluster: surely a cluster client (see provedCluster).
	Cluster bool
	// Node: one node of a cluster client, used as such (see perNode).
	Node bool
	// Splits: a go-redis cluster client given a command-info resolver,
	// which splits some multi-key commands by slot (see splitsBySlot).
	Splits bool
	// clusterNode: a node a cluster client hands out (see clusterNode),
	// which checks slots as the cluster does.
	clusterNode bool
	// Ring: go-redis's Ring (see isRing), which shards keys over plain
	// servers by hash tag: no CROSSSLOT, another shard's keys silently
	// read or written on the first key's shard.
	Ring bool
}

// String says what t says, for tests and debugging: "one server",
// "cluster, splits", "either".
func (t Topology) String() string {
	var says []string
	for _, f := range []struct {
		set  bool
		name string
	}{{t.OneServer, "one server"}, {t.Cluster, "cluster"}, {t.Node, "node"}, {t.clusterNode, "cluster's node"}, {t.Splits, "splits"}, {t.Ring, "ring"}} {
		if f.set {
			says = append(says, f.name)
		}
	}
	if len(says) == 0 {
		return "either"
	}
	return strings.Join(says, ", ")
}

// TopologyOf is what the client value v talks to, each answer read once
// per client.
func (r *Reader) TopologyOf(v ssa.Value) Topology {
	return Topology{
		OneServer: r.Is(v, OneServer), Cluster: r.Is(v, Cluster), Node: r.Is(v, Node),
		Splits: r.Is(v, Splits), clusterNode: r.Is(v, ClusterNode), Ring: r.Is(v, Ring),
	}
}

// TopologyAt is what the client value v talks to at the instruction at
// (a call of it): where a type check on v ruled a cluster client in (see
// guardedOnCluster), a cluster client; elsewhere what TopologyOf says,
// whatever checks other functions make of the same client.
func (r *Reader) TopologyAt(at ssa.Instruction, v ssa.Value) Topology {
	if at != nil && guardedOnCluster(at, v) {
		return Topology{Cluster: true, Splits: r.Is(v, Splits)}
	}
	return r.TopologyOf(v)
}

// IsAt is Is at the instruction at (see TopologyAt).
func (r *Reader) IsAt(at ssa.Instruction, v ssa.Value, q Question) bool {
	if at != nil && guardedOnCluster(at, v) {
		switch q {
		case Cluster:
			return true
		case Splits:
			return r.Is(v, Splits)
		}
		return false // a cluster client: not one server, a node or a Ring
	}
	return r.Is(v, q)
}

// A Question is one of TopologyOf's answers; Is answers one alone, on the
// hot path of every client call (whether it talks to one server), without
// reading the others.
type Question uint8

const (
	OneServer Question = 1 << iota
	Cluster
	Node
	Splits
	ClusterNode
	Ring
)

// An answer is the questions asked of one client so far, and those answered
// yes.
type answer struct{ asked, yes Question }

// Is answers one question of the client value v, once per client.
func (r *Reader) Is(v ssa.Value, q Question) bool {
	if !r.Eval.Work().Enter() {
		return false
	}
	defer r.Eval.Work().Leave()
	if v == nil {
		return false
	}
	id, ok := clientIdentity(v)
	if !ok {
		id = v
	}
	a := r.answers[id]
	if a.asked&q != 0 {
		return a.yes&q != 0
	}
	var yes bool
	switch q {
	case OneServer:
		yes = r.singleNode(v) && !r.Is(v, ClusterNode)
	case Cluster:
		yes = r.ProvedCluster(v)
	case Node:
		yes = r.perNode(v)
	case Splits:
		yes = r.splitsBySlot(v)
	case ClusterNode:
		yes = r.clusterNode(v)
	case Ring:
		yes = r.isRing(v)
	}
	a = r.answers[id] // the questions above may have answered others
	a.asked |= q
	if yes {
		a.yes |= q
	}
	r.answers[id] = a
	return yes
}

// LeftOut is the one place the options' IncludeSingleNode is read: a use
// of a client that talks to one server is left out of the checks, unless
// they include single-node clients, or the target is a proxy in front of
// a cluster, whose one endpoint a plain client talks to.
func (r *Reader) LeftOut(oneServer bool) bool {
	return oneServer && !r.includeSingleNode && !r.proxy
}

// Undecided reports a client whose problems that only a cluster has are
// counted as undecided, not reported: one not proved to be a cluster
// client, unless the options include single-node clients (then every
// client is judged as a cluster's).
func (r *Reader) Undecided(v ssa.Value) bool {
	return r.UndecidedAt(nil, v)
}

// UndecidedAt is Undecided at the instruction at (see TopologyAt): a client
// a type check ruled a cluster client in is decided there.
func (r *Reader) UndecidedAt(at ssa.Instruction, v ssa.Value) bool {
	return r.LeftOut(!r.IsAt(at, v, Cluster))
}

// LeftOutCall reports a call on client that the checks leave out: the
// client talks to one server (unless the options include single-node
// clients, see LeftOut), or the call only runs where a type check ruled a
// cluster client out, and not on a cluster's node. The code that checks
// is the fix, with -include-single-node too: it already does something
// else on a cluster. Not behind a proxy, whose one endpoint a plain
// client reaches. A call where the check ruled a cluster client in is a
// cluster client's, whatever the client's other values talk to.
func (r *Reader) LeftOutCall(call ssa.CallInstruction, client ssa.Value) bool {
	if !r.proxy && guardedOnOneNode(call, client) && !r.Is(client, ClusterNode) {
		return true
	}
	return r.LeftOut(r.IsAt(call, client, OneServer))
}

// A Reader answers what the client values of one package talk to.
type Reader struct {
	Eval    *eval.Evaluator
	pkg     *types.Package
	ssaPkg  *ssa.Package
	funcs   []*ssa.Function
	callees Callees
	// includeSingleNode: the options judge every client as a cluster's
	// (what breaks if it becomes one); proxy: a proxy fronts the target's
	// cluster, and a plain client talks to it (see LeftOut).
	includeSingleNode, proxy bool

	// The answers TopologyOf gave, and what its predicates read once for
	// the whole package.
	answers map[any]answer
	// splitting: the clients given a command-info resolver (splitting.go),
	// nil until asked.
	splitting map[any]bool
	// redigoCluster: whether the package reaches a cluster library built
	// on redigo; nil until asked.
	redigoCluster *bool
	// paramsFromCallers: whether every caller passes a single-node client
	// to a parameter (see singleNodeFromCallers).
	paramsFromCallers map[*ssa.Parameter]bool
	// runners are the functions being read as per-node runners (see
	// runsPerNode), against recursion.
	runners map[*ssa.Function]bool
}

// Callees is what the reading knows of the functions a call calls, in this
// package or another (facts).
type Callees interface {
	// ReturnsSingleNode: the called function returns a client that talks
	// to one node.
	ReturnsSingleNode(common *ssa.CallCommon) bool
	// RunsOnSingleNode: the called function runs its argument j as the
	// callback of a single-node client's Pipelined, TxPipelined or Watch.
	RunsOnSingleNode(common *ssa.CallCommon, j int) bool
}

// New makes the Reader of a package's clients: its SSA functions, read
// with ev, and the options that decide what is left out.
func New(ev *eval.Evaluator, pkg *types.Package, ssaPkg *ssa.Package, funcs []*ssa.Function, callees Callees, includeSingleNode, proxy bool) *Reader {
	return &Reader{Eval: ev, pkg: pkg, ssaPkg: ssaPkg, funcs: funcs, callees: callees, includeSingleNode: includeSingleNode, proxy: proxy,
		answers: map[any]answer{}, paramsFromCallers: map[*ssa.Parameter]bool{}, runners: map[*ssa.Function]bool{}}
}

// provedCluster reports a client value that surely talks to a cluster: a
// *redis.ClusterClient, a client a call makes for a cluster (see
// clients.MakesClusterClient), an interface holding one, or a field the
// package only ever sets to one.
func (r *Reader) ProvedCluster(v ssa.Value) bool {
	return r.AllOrigins(v, 0, func(v ssa.Value, _ int) bool {
		if clients.IsClusterClientType(v.Type()) {
			return !clients.MakesSentinelClient(v)
		}
		switch v := v.(type) {
		case *ssa.Call:
			return clients.MakesClusterClient(v, r.Eval)
		case *ssa.Extract:
			call, ok := v.Tuple.(*ssa.Call)
			return ok && v.Index == 0 && clients.MakesClusterClient(call, r.Eval)
		}
		return false
	}, nil)
}

// isRing reports a client that is surely a go-redis Ring: every origin is
// a *Ring (NewRing's, or one the function is given).
func (r *Reader) isRing(v ssa.Value) bool {
	return r.AllOrigins(v, 0, func(v ssa.Value, _ int) bool { return clients.IsRing(v.Type()) }, nil)
}

// allOrigins reports whether every value a client value can come from
// satisfies origin: it looks through interface conversions, φ-nodes (every
// edge), embedded fields (go-redis's commands are methods of an embedded
// cmdable, called on the field), unexported fields the package only ever
// sets and unexported package variables whose address it never passes on
// (every value stored). A store that guarded accepts counts whatever its
// value (nil: none does).
func (r *Reader) AllOrigins(v ssa.Value, depth int, origin func(ssa.Value, int) bool, guarded func(*ssa.Store) bool) bool {
	if !r.Eval.Work().Enter() {
		return false
	}
	defer r.Eval.Work().Leave()
	if v == nil || depth > maxSingleNodeDepth {
		return false
	}
	if origin(v, depth) {
		return true
	}
	depth++
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return r.AllOrigins(v.X, depth, origin, guarded)
	case *ssa.ChangeInterface:
		return r.AllOrigins(v.X, depth, origin, guarded)
	case *ssa.ChangeType:
		return r.AllOrigins(v.X, depth, origin, guarded)
	case *ssa.Call, *ssa.Extract:
		// a redigo connection talks where its pool dials
		if pool, ok := clients.RedigoPoolOf(v); ok {
			return r.AllOrigins(pool, depth, origin, guarded)
		}
		return false
	case *ssa.Phi:
		// A variable a loop assigns (a client made again on each retry):
		// its φs edges are the values assigned, the nil it starts from,
		// which sends nothing, and the φs of the loop itself.
		seen := map[*ssa.Phi]bool{}
		var walk func(phi *ssa.Phi) (ok bool, values int)
		walk = func(phi *ssa.Phi) (bool, int) {
			seen[phi] = true
			values := 0
			for _, e := range phi.Edges {
				switch e := e.(type) {
				case *ssa.Phi:
					if seen[e] {
						continue
					}
					ok, n := walk(e)
					if !ok {
						return false, 0
					}
					values += n
					continue
				case *ssa.Const:
					if e.IsNil() {
						continue
					}
				}
				if !r.AllOrigins(e, depth, origin, guarded) {
					return false, 0
				}
				values++
			}
			return true, values
		}
		ok, values := walk(v)
		return ok && values > 0
	}
	storedOK := func(st *ssa.Store) bool {
		return guarded != nil && guarded(st) || r.AllOrigins(st.Val, depth, origin, guarded)
	}
	if g, ok := globalLoad(v); ok {
		stores, ok := r.Eval.GlobalWrites(g)
		for _, st := range stores {
			if !storedOK(st) {
				return false
			}
		}
		return ok
	}
	f, ok := fieldOf(v)
	if !ok {
		return false
	}
	if ssaread.IsEmbedded(f.base.Type(), f.field) {
		return r.AllOrigins(f.base, depth, origin, guarded)
	}
	stores, ok := r.Eval.FieldStores(f.base.Type(), f.field)
	others := 0
	for _, st := range stores {
		if copied, isField := fieldOf(clients.ClientRoot(st.Val)); isField && sameFieldOfType(copied, f) {
			continue // a copy of the field into another value of its type: no new origin
		}
		if !storedOK(st) {
			return false
		}
		others++
	}
	return ok && others > 0
}

// sameFieldOfType: two loads of one field of one struct type (of two
// values, perhaps).
func sameFieldOfType(x, y FieldLoad) bool {
	return x.field == y.field && types.Identical(derefType(x.base.Type()), derefType(y.base.Type()))
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// globalLoad: v reads a package variable.
func globalLoad(v ssa.Value) (*ssa.Global, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	g, ok := load.X.(*ssa.Global)
	return g, ok
}

// A FieldLoad is a field of a value, read by loading it.
type FieldLoad struct {
	base  ssa.Value
	field int
}

func fieldOf(v ssa.Value) (FieldLoad, bool) {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return FieldLoad{fa.X, fa.Field}, true
		}
	case *ssa.Field:
		return FieldLoad{v.X, v.Field}, true
	}
	return FieldLoad{}, false
}
