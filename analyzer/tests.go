package analyzer

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
func (a *packageAnalysis) testOffCluster(pos token.Pos, client ssa.Value) bool {
	if a.cfg.IncludeTests || !strings.HasSuffix(a.pass.Fset.Position(pos).Filename, "_test.go") {
		return false
	}
	return !a.provedCluster(client, 0)
}

// provedCluster reports a client value that surely talks to a cluster: a
// *redis.ClusterClient, a client a call makes for a cluster (see
// clients.MakesClusterClient), an interface holding one, or a field the
// package only ever sets to one.
func (a *packageAnalysis) provedCluster(v ssa.Value, depth int) bool {
	return a.allOrigins(v, depth, func(v ssa.Value, _ int) bool {
		if clients.IsClusterClientType(v.Type()) {
			return true
		}
		switch v := v.(type) {
		case *ssa.Call:
			return clients.MakesClusterClient(v, a.ev)
		case *ssa.Extract:
			call, ok := v.Tuple.(*ssa.Call)
			return ok && v.Index == 0 && clients.MakesClusterClient(call, a.ev)
		}
		return false
	})
}
