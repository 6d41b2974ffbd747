package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/fixclause"
)

// TestAdviceIsSafe runs every check, the hottag check among them, over
// every fixture package and fails on a fix that would hurt: a clause that
// tells keys of two entities (two values of one template, two elements of
// an input) to share one hash tag, a suggested fix for such keys (every
// fix inserts one tag), or a clause that proposes a tag the hottag check
// objects to (a constant tag with a per-entity value outside it). The
// services' findings are walked the same way by the command's
// TestRegressionSets.
func TestAdviceIsSafe(t *testing.T) {
	all := &analyzer.Config{Strict: true, HotTags: true, IncludeSingleNode: true}
	pkgs := fixturePackages(t)
	walked, twoEntities, hot := 0, 0, 0
	for _, r := range analysistest.Run(&errorCount{}, testdata(t), analyzer.New(all), pkgs...) {
		for _, d := range r.Diagnostics {
			at := r.Pass.Fset.Position(d.Pos)
			if d.Category == analyzer.CategoryHotTag {
				hot++
			}
			if !fixclause.Judged[d.Category] {
				continue
			}
			walked++
			a, b, family, ok := fixclause.Keys(d.Message)
			if !ok {
				t.Errorf("%s: no two keys in the finding: %s", at, d.Message)
				continue
			}
			if fixclause.TwoEntities(a, b, family) {
				twoEntities++
				if fixclause.SharedTag(fixclause.Clause(d.Message)) {
					t.Errorf("%s: keys %q and %q of two entities are told to share one hash tag: %s", at, a, b, d.Message)
				}
				if len(d.SuggestedFixes) > 0 {
					t.Errorf("%s: keys %q and %q of two entities get a suggested fix that tags them alike (%s): %s", at, a, b, d.SuggestedFixes[0].Message, d.Message)
				}
			}
			if p := fixclause.HotProposals(d.Message); len(p) > 0 {
				t.Errorf("%s: the fix proposes %q, which the hottag check objects to: %s", at, p, d.Message)
			}
		}
	}
	if walked < 500 || twoEntities < 100 || hot == 0 {
		t.Errorf("walked %d findings, %d over two entities, beside %d hottag findings; want the fixtures' 500, 100 and some", walked, twoEntities, hot)
	}
	t.Logf("walked %d findings, %d of them over keys of two entities, with %d hottag findings", walked, twoEntities, hot)
}
