package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"

	"github.com/crossslot/crossslot/analyzer"
)

// docURL is where the checks are documented online: the README's section
// "What it reports", which lists them and links to docs/checks.md for an
// example of each, until the module is published (then its package
// documentation, whose "Check NAME" sections are doc.go's, would say the
// same).
const docURL = "https://github.com/crossslot/crossslot#what-it-reports"

// checks gives lintcmd one check per diagnostic category, documented by
// analyzer.Checks. The crossslot check is the analyzer, which reports every
// category; the other checks only name theirs. lintcmd keeps a diagnostic
// when the check named by its category is enabled, so -checks and
// //lint:ignore work per category while the analysis runs once.
func checks(a *analysis.Analyzer) []*lint.Analyzer {
	var out []*lint.Analyzer
	for _, c := range analyzer.Checks() {
		check := &lint.Analyzer{
			Doc:      &lint.RawDocumentation{Title: c.Title, Text: c.Text, Severity: lint.SeverityWarning},
			Analyzer: a,
		}
		if c.Error {
			check.Doc.Severity = lint.SeverityError
		}
		if c.Name != analyzer.CategoryCrossSlot {
			check.Analyzer = &analysis.Analyzer{
				Name: c.Name,
				Doc:  c.Title + " (reported by the crossslot analyzer)",
				Run:  func(*analysis.Pass) (any, error) { return nil, nil },
			}
		}
		out = append(out, check)
	}
	// The records (analyzer.Config.Records) need a check of their own for
	// lintcmd to keep them; analyze takes them out of the findings.
	out = append(out, &lint.Analyzer{
		Doc: &lint.RawDocumentation{Title: "what a package's analysis records besides its findings (the key inventory, the coverage); never shown",
			Severity: lint.SeverityNone},
		Analyzer: &analysis.Analyzer{Name: analyzer.CategoryRecord, Doc: "records of the crossslot analyzer, for crossslot keys and readiness",
			Run: func(*analysis.Pass) (any, error) { return nil, nil }},
	})
	return out
}

// checkList rejects a -checks or -fail list naming a check that does not
// exist, which lintcmd would take as a selection of nothing: a typo there
// would silently turn the checks off.
func checkList(list string) error {
	known := map[string]bool{"all": true, "*": true, "inherit": true, analyzer.CategoryRecord: true}
	var names []string
	for _, c := range analyzer.Checks() {
		known[c.Name] = true
		names = append(names, c.Name)
	}
	for _, elem := range strings.Split(strings.Trim(list, `"`), ",") {
		elem = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(elem), "-"))
		if elem != "" && !known[elem] {
			return fmt.Errorf("unknown check %q; the checks are %s (and all)", elem, strings.Join(names, ", "))
		}
	}
	return nil
}

// explain prints a check's documentation, as lintcmd's -explain does, with a
// link to this project's documentation.
func explain(stdout, stderr io.Writer, name string) int {
	for _, c := range analyzer.Checks() {
		if strings.EqualFold(c.Name, name) {
			fmt.Fprintf(stdout, "%s: %s\n\n%s\n\nTargets (-crossslot.target)\n    %s\n\nOnline documentation\n    %s\n", c.Name, c.Title, c.Text, c.Targets, docURL)
			return 0
		}
	}
	var names []string
	for _, c := range analyzer.Checks() {
		names = append(names, c.Name)
	}
	fmt.Fprintf(stderr, "crossslot: no check named %q; the checks are %s\n", name, strings.Join(names, ", "))
	return exitUsage
}
