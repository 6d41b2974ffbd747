package reading

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// What a client value talks to: one server, a cluster, one node of a
// cluster reached per node, or either, and whether a cluster client splits
// multi-key reads by slot. TopologyOf is the one entry point, with one
// answer per client (a field's loads share one); the predicates behind it
// follow a value to every origin the package shows (allOrigins):
// singlenode.go (one server, and guards that rule a cluster out),
// pernode.go (the nodes of a cluster), splitting.go (command-info
// resolvers). The client types and constructors themselves are told apart
// in clients/cluster.go.

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
func (r *Package) TopologyOf(v ssa.Value) Topology {
	return Topology{
		OneServer: r.is(v, oneServer), Cluster: r.is(v, cluster), Node: r.is(v, node),
		Splits: r.is(v, splits), clusterNode: r.is(v, clusterNode), Ring: r.is(v, ring),
	}
}

// A question is one of TopologyOf's answers; is answers one alone, on the
// hot path of every client call (whether it talks to one server), without
// reading the others.
type question uint8

const (
	oneServer question = 1 << iota
	cluster
	node
	splits
	clusterNode
	ring
)

// An answer is the questions asked of one client so far, and those answered
// yes.
type answer struct{ asked, yes question }

func (r *Package) is(v ssa.Value, q question) bool {
	if v == nil {
		return false
	}
	id, ok := clientIdentity(v)
	if !ok {
		id = v
	}
	a := r.topology.answers[id]
	if a.asked&q != 0 {
		return a.yes&q != 0
	}
	var yes bool
	switch q {
	case oneServer:
		yes = r.singleNode(v) && !r.is(v, clusterNode)
	case cluster:
		yes = r.provedCluster(v)
	case node:
		yes = r.perNode(v)
	case splits:
		yes = r.splitsBySlot(v)
	case clusterNode:
		yes = r.clusterNode(v)
	case ring:
		yes = r.isRing(v)
	}
	a = r.topology.answers[id] // the questions above may have answered others
	a.asked |= q
	if yes {
		a.yes |= q
	}
	r.topology.answers[id] = a
	return yes
}

// leftOut is the one place the options' IncludeSingleNode is read: a use
// of a client that talks to one server is left out of the checks, unless
// they include single-node clients, or the target is a proxy in front of
// a cluster, whose one endpoint a plain client talks to.
func (r *Package) leftOut(oneServer bool) bool {
	return oneServer && !r.Options.IncludeSingleNode && r.Options.Target.Proxy == ""
}

// Undecided reports a client whose problems that only a cluster has are
// counted as undecided, not reported: one not proved to be a cluster
// client, unless the options include single-node clients (then every
// client is judged as a cluster's).
func (r *Package) Undecided(v ssa.Value) bool {
	return r.leftOut(!r.is(v, cluster))
}

// talksToOneNode: the client of a call talks to one server, or the call
// only runs where a guard ruled a cluster client out; not a cluster's node.
func (r *Package) talksToOneNode(call ssa.CallInstruction, client ssa.Value) bool {
	return r.is(client, oneServer) || guardedOnOneNode(call, client) && !r.is(client, clusterNode)
}

// topology holds the answers TopologyOf gave and what its predicates read
// once for the whole package.
type topology struct {
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

// provedCluster reports a client value that surely talks to a cluster: a
// *redis.ClusterClient, a client a call makes for a cluster (see
// clients.MakesClusterClient), an interface holding one, or a field the
// package only ever sets to one.
func (r *Package) provedCluster(v ssa.Value) bool {
	return r.allOrigins(v, 0, func(v ssa.Value, _ int) bool {
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
func (r *Package) isRing(v ssa.Value) bool {
	return r.allOrigins(v, 0, func(v ssa.Value, _ int) bool { return clients.IsRing(v.Type()) }, nil)
}

// allOrigins reports whether every value a client value can come from
// satisfies origin: it looks through interface conversions, φ-nodes (every
// edge), embedded fields (go-redis's commands are methods of an embedded
// cmdable, called on the field), unexported fields the package only ever
// sets and unexported package variables whose address it never passes on
// (every value stored). A store that guarded accepts counts whatever its
// value (nil: none does).
func (r *Package) allOrigins(v ssa.Value, depth int, origin func(ssa.Value, int) bool, guarded func(*ssa.Store) bool) bool {
	if v == nil || depth > maxSingleNodeDepth {
		return false
	}
	if origin(v, depth) {
		return true
	}
	depth++
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return r.allOrigins(v.X, depth, origin, guarded)
	case *ssa.ChangeInterface:
		return r.allOrigins(v.X, depth, origin, guarded)
	case *ssa.ChangeType:
		return r.allOrigins(v.X, depth, origin, guarded)
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
				if !r.allOrigins(e, depth, origin, guarded) {
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
		return guarded != nil && guarded(st) || r.allOrigins(st.Val, depth, origin, guarded)
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
		return r.allOrigins(f.base, depth, origin, guarded)
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
func sameFieldOfType(x, y fieldLoad) bool {
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

// A fieldLoad is a field of a value, read by loading it.
type fieldLoad struct {
	base  ssa.Value
	field int
}

func fieldOf(v ssa.Value) (fieldLoad, bool) {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return fieldLoad{fa.X, fa.Field}, true
		}
	case *ssa.Field:
		return fieldLoad{v.X, v.Field}, true
	}
	return fieldLoad{}, false
}
