package reading

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

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
	dir, err := filepath.Abs("../../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, summaries, "summaries/...")
}
