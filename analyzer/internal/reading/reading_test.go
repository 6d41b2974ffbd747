package reading

// The reading's own answers, each by a small analyzer that reports it, over
// the fixtures of the repository's testdata/src (beside the stubs of the
// clients they import), before any check judges a command by them.

import (
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// fixtures is the repository's testdata, where analysistest finds src.
var fixtures, _ = filepath.Abs("../../../testdata")

// topologies reports, at each client call of a package, what TopologyAt
// says its client talks to there: the reading's own answer, before any check
// judges a command by it.
var topologies = &analysis.Analyzer{
	Name:      "topologies",
	Doc:       "reports what each client call's client talks to",
	FactTypes: FactTypes(),
	Run: func(pass *analysis.Pass) (any, error) {
		r := Read(pass, Options{})
		for _, fn := range r.funcs {
			for call := range ssaread.CallsIn(fn) {
				if site := clients.Recognize(call, r.Eval); site != nil && !isReply(site) {
					client := site.Client()
					if site.Builder != nil {
						client = clients.BuilderClient(site.Builder)
					}
					pass.Reportf(call.Pos(), "%s", r.topo.TopologyAt(call, client))
				}
			}
		}
		return nil, nil
	},
}

// isReply: a method of a command's reply (Err, Result), not of a client.
func isReply(site *clients.Site) bool {
	fn := ssaread.CalledFunc(site.Common)
	return fn != nil && strings.HasSuffix(strings.ToLower(types.TypeString(fn.Signature().Recv().Type(), nil)), "cmd")
}

// TestTopology pins TopologyOf on every way code makes or holds a client
// (testdata/src/topology).
func TestTopology(t *testing.T) {
	analysistest.Run(t, fixtures, topologies, "topology/...")
}

// summaries exports the facts of each package's summaries, and nothing
// else: the reading's own answer on what a function does with keys, before
// any check uses it.
var summaries = &analysis.Analyzer{
	Name:      "summaries",
	Doc:       "exports each function's summary as a fact",
	FactTypes: FactTypes(),
	Run: func(pass *analysis.Pass) (any, error) {
		Read(pass, Options{}).ExportFacts()
		return nil, nil
	},
}

// TestSummaries pins the summaries of key builders, wrappers, queues and
// client makers, in one package and read from another through facts
// (testdata/src/summaries).
func TestSummaries(t *testing.T) {
	analysistest.Run(t, fixtures, summaries, "summaries/...")
}
