package analyzer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
)

// testdata is the repository's shared testdata, where go-redis is stubbed at
// its real import path.
func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestAnalyzer covers every category and the silent near-misses; its
// singleNode function checks that *redis.Client and *redis.Conn are skipped
// by default.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "a")
}

func TestIncludeSingleNode(t *testing.T) {
	a := analyzer.New(&analyzer.Config{IncludeSingleNode: true})
	analysistest.Run(t, testdata(t), a, "singlenode")
}

func TestDocFeedsAnalyzerDoc(t *testing.T) {
	doc := analyzer.Analyzer.Doc
	if !strings.HasPrefix(doc, "report multi-key Redis commands whose keys are on different hash slots") {
		t.Errorf("Doc starts %q", doc[:60])
	}
	for _, category := range []string{"crossslot", "emptytag", "doubletag", "unclosedtag"} {
		if !strings.Contains(doc, "- "+category+":") {
			t.Errorf("Doc does not document category %s", category)
		}
	}
}

// TestCoLocateFix applies the suggested fixes and compares with
// fixes.go.golden; the noFix function pins where no fix is offered.
func TestCoLocateFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), analyzer.Analyzer, "fixes")
}
