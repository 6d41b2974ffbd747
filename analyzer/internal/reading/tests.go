package reading

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
)

// Tests mostly run on one server or on miniredis (which answers cluster
// commands but checks no slots), where any keys may be combined: a finding
// whose call is in a _test.go file, directly or at a wrapper's call, is
// reported only when the client there is proved to be a cluster client.
// Config.IncludeTests reports them all.

// testOffCluster reports a call at pos in a _test.go file whose client is
// not proved to talk to a cluster, which is then not checked.
func (r *Package) testOffCluster(pos token.Pos, client ssa.Value) bool {
	if r.Options.IncludeTests || !strings.HasSuffix(r.Pass.Fset.Position(pos).Filename, "_test.go") {
		return false
	}
	return !r.ProvedCluster(client)
}

// ProvedCluster reports a client value that surely talks to a cluster: a
// *redis.ClusterClient, a client a call makes for a cluster (see
// clients.MakesClusterClient), an interface holding one, or a field the
// package only ever sets to one.
func (r *Package) ProvedCluster(v ssa.Value) bool {
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
