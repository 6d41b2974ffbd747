package main

import (
	"fmt"

	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/fixclause"
)

// unsafeAdvice lists the findings of a run, the hottag check on, whose fix
// would hurt: a clause telling keys of two entities (two values of one
// template, two elements of an input) to share one hash tag, a suggested
// fix for such keys (every fix inserts one tag), or a clause proposing a
// tag the hottag check objects to. walked counts the findings judged, and
// twoEntities those over keys of two entities.
func unsafeAdvice(findings []finding.Finding) (bad []string, walked, twoEntities int) {
	for _, f := range findings {
		if !fixclause.Judged[f.Check] {
			continue
		}
		walked++
		at := fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line)
		a, b, family, ok := fixclause.Keys(f.Message)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: no two keys in the finding: %s", at, f.Message))
			continue
		}
		if fixclause.TwoEntities(a, b, family) {
			twoEntities++
			if fixclause.SharedTag(fixclause.Clause(f.Message)) {
				bad = append(bad, fmt.Sprintf("%s: keys %q and %q of two entities are told to share one hash tag: %s", at, a, b, f.Message))
			}
			if len(f.Fixes) > 0 {
				bad = append(bad, fmt.Sprintf("%s: keys %q and %q of two entities get a suggested fix that tags them alike: %s", at, a, b, f.Message))
			}
		}
		if hot := fixclause.HotProposals(f.Message); len(hot) > 0 {
			bad = append(bad, fmt.Sprintf("%s: the fix proposes %q, which the hottag check objects to: %s", at, hot, f.Message))
		}
	}
	return bad, walked, twoEntities
}
