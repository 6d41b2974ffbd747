package analyzer

import (
	"fmt"
	"go/token"
	"slices"
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
// required, and applies to its own line and the line after it: to a finding
// there, or to a finding one of whose related positions is there (the
// opening call of a transaction, the call that runs a script), where a
// reader of the finding may well put it.
const ignoreDirective = "//crossslot:ignore"

// SilencedBy starts the related information added to a finding a
// //crossslot:ignore directive silenced, when Config.ShowIgnored keeps it.
const SilencedBy = "silenced by " + ignoreDirective

// ignores are a package's directives by file and line.
type ignores map[string]map[int][]directive // file -> line -> directives

// A directive is one //crossslot:ignore comment: the checks it names.
type directive struct {
	checks []string
	at     token.Pos
}

// readIgnores reads the directives, and reports those that cannot be
// honoured: without a reason, or naming no known check.
func readIgnores(pass *analysis.Pass, report func(analysis.Diagnostic)) ignores {
	known := map[string]bool{}
	for _, c := range checks { // the table, not its documentation: this runs for every package
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
					report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: CategoryDirective,
						Message: ignoreDirective + " needs the checks it silences and a reason; write it as " + ignoreDirective + " crossslot one shard in this deployment"})
					continue
				}
				checks := strings.Split(fields[0], ",")
				for _, name := range checks {
					if !known[name] {
						report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: CategoryDirective,
							Message: fmt.Sprintf("%s names %q, which is not a check; crossslot -list-checks lists them", ignoreDirective, name)})
					}
				}
				p := pass.Fset.Position(c.Pos())
				if out[p.Filename] == nil {
					out[p.Filename] = map[int][]directive{}
				}
				for _, line := range []int{p.Line, p.Line + 1} {
					out[p.Filename][line] = append(out[p.Filename][line], directive{checks: checks, at: c.Pos()})
				}
			}
		}
	}
	return out
}

// honourIgnores makes the pass drop the diagnostics a directive covers (or,
// to show them, mark them: see SilencedBy), and report the directives that
// cannot be honoured. It is the one place pass.Report is wrapped: a front
// end that shows no related positions (golangci-lint) has them dropped
// here too, after the directives matched them.
func honourIgnores(pass *analysis.Pass, cfg *Config) ignores {
	report := pass.Report
	ignored := readIgnores(pass, report)
	pass.Report = func(d analysis.Diagnostic) {
		at, silenced := ignored.silences(pass.Fset, d)
		switch {
		case silenced && !cfg.ShowIgnored:
			return
		case silenced:
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, End: at, Message: SilencedBy})
		}
		if cfg.WithoutRelated {
			d.Related = nil
		}
		report(d)
	}
	return ignored
}

// silences reports whether a directive covers the diagnostic, at its
// position or at a related one, and where the directive is.
func (ig ignores) silences(fset *token.FileSet, d analysis.Diagnostic) (token.Pos, bool) {
	positions := []token.Pos{d.Pos}
	for _, r := range d.Related {
		positions = append(positions, r.Pos)
	}
	for _, pos := range positions {
		p := fset.Position(pos)
		for _, dir := range ig[p.Filename][p.Line] {
			if slices.Contains(dir.checks, d.Category) {
				return dir.at, true
			}
		}
	}
	return token.NoPos, false
}
