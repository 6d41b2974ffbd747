package analyzer_test

import (
	"path/filepath"
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

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "a")
}
