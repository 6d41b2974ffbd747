package analyzer

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignoreDirective is the one suppression comment every front end honours —
// go vet has none of its own — because the analyzer honours it itself:
//
//	//crossslot:ignore crossslot one shard in this deployment
//	rdb.MGet(ctx, "user:3:a", "user:4:a")
//
// It names the checks it silences (comma-separated) and a reason, which is
// required, and applies to its own line and the line after it.
const ignoreDirective = "//crossslot:ignore"

// ignores are a package's directives by file and line.
type ignores map[string]map[int][]string // file -> line -> checks

// readIgnores reads the directives, and reports those that cannot be
// honoured: without a reason, or naming no known check.
func readIgnores(pass *analysis.Pass, report func(analysis.Diagnostic)) ignores {
	known := map[string]bool{}
	for _, c := range Checks() {
		known[c.Name] = true
	}
	out := ignores{}
	for _, f := range pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				rest, ok := strings.CutPrefix(c.Text, ignoreDirective)
				if !ok || (rest != "" && rest[0] != ' ') {
					continue
				}
				fields := strings.Fields(rest)
				if len(fields) < 2 {
					report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: CategoryCrossSlot,
						Message: ignoreDirective + " needs the checks it silences and a reason; write it as " + ignoreDirective + " crossslot one shard in this deployment"})
					continue
				}
				checks := strings.Split(fields[0], ",")
				for _, name := range checks {
					if !known[name] {
						report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: CategoryCrossSlot,
							Message: fmt.Sprintf("%s names %q, which is not a check; crossslot -list-checks lists them", ignoreDirective, name)})
					}
				}
				p := pass.Fset.Position(c.Pos())
				if out[p.Filename] == nil {
					out[p.Filename] = map[int][]string{}
				}
				for _, line := range []int{p.Line, p.Line + 1} {
					out[p.Filename][line] = append(out[p.Filename][line], checks...)
				}
			}
		}
	}
	return out
}

// honourIgnores makes the pass drop the diagnostics a directive covers, and
// report the directives that cannot be honoured.
func honourIgnores(pass *analysis.Pass) {
	report := pass.Report
	ignored := readIgnores(pass, report)
	pass.Report = func(d analysis.Diagnostic) {
		if !ignored.silences(pass.Fset, d) {
			report(d)
		}
	}
}

// silences reports whether a directive covers the diagnostic.
func (ig ignores) silences(fset *token.FileSet, d analysis.Diagnostic) bool {
	p := fset.Position(d.Pos)
	for _, check := range ig[p.Filename][p.Line] {
		if check == d.Category {
			return true
		}
	}
	return false
}
