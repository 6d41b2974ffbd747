package main

import (
	"testing"

	"github.com/crossslot/crossslot/internal/fixclause"
)

// TestAdviceIsSafeOnServices walks every finding of the services written
// to measure the analyzer (testdata/fresh/*, testdata/blind/*) and of the
// example module, the hottag check on, and fails on a fix that would hurt:
// a clause telling keys of two entities (two values of one template, two
// elements of an input) to share one hash tag, a suggested fix for such
// keys (every fix inserts one tag), or a clause proposing a tag the hottag
// check objects to.
func TestAdviceIsSafeOnServices(t *testing.T) {
	dirs := regressionSets(t) // the example and every service
	walked, twoEntities := 0, 0
	for _, dir := range dirs {
		for _, byAnalyzer := range vetJSON(t, dir, []string{"./..."}, "-crossslot.hot-tags") {
			for _, d := range byAnalyzer["crossslot"] {
				if !fixclause.Judged[d.Category] {
					continue
				}
				walked++
				a, b, family, ok := fixclause.Keys(d.Message)
				if !ok {
					t.Errorf("%s: no two keys in the finding: %s", d.Posn, d.Message)
					continue
				}
				if fixclause.TwoEntities(a, b, family) {
					twoEntities++
					if fixclause.SharedTag(fixclause.Clause(d.Message)) {
						t.Errorf("%s: keys %q and %q of two entities are told to share one hash tag: %s", d.Posn, a, b, d.Message)
					}
					if len(d.SuggestedFixes) > 0 {
						t.Errorf("%s: keys %q and %q of two entities get a suggested fix that tags them alike: %s", d.Posn, a, b, d.Message)
					}
				}
				if hot := fixclause.HotProposals(d.Message); len(hot) > 0 {
					t.Errorf("%s: the fix proposes %q, which the hottag check objects to: %s", d.Posn, hot, d.Message)
				}
			}
		}
	}
	if walked < 290 { // 297 since one bug is one finding
		t.Errorf("walked %d findings, want the services' 290 or more", walked)
	}
	t.Logf("walked %d findings of %d modules, %d of them over keys of two entities", walked, len(dirs), twoEntities)
}
