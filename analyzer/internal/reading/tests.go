package reading

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
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
	return !r.is(client, cluster)
}
