package main

import (
	"bufio"
	"os"
	"slices"
	"strings"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
)

// lintcmd matches a //lint:ignore directive with a finding at the line after
// it only. A reader of a transaction's finding, though, looks at the call
// that opens it, and a reader of a script's, at the call that runs it: the
// finding's related positions. honourRelatedIgnores lets such a directive
// silence the finding too, and marks what //crossslot:ignore silenced
// (the analyzer keeps those for us, see analyzer.SilencedBy) as ignored.

// staleDirective is lintcmd's message for a directive that matched nothing.
const staleDirective = "this linter directive didn't match anything; should it be removed?"

// honourRelatedIgnores marks as ignored the findings a //lint:ignore above
// one of their related positions names, drops the directives' "matched
// nothing" findings it so matches, and marks the findings silenced by
// //crossslot:ignore.
func honourRelatedIgnores(findings []finding.Finding) []finding.Finding {
	lines := map[string][]string{}
	lineOf := func(file string, n int) string {
		if _, ok := lines[file]; !ok {
			lines[file] = readLines(file)
		}
		if n < 1 || n > len(lines[file]) {
			return ""
		}
		return lines[file][n-1]
	}
	type fileLine struct {
		file string
		line int
	}
	stale := map[fileLine]finding.Position{} // the directives that matched nothing, by line
	for _, f := range findings {
		if f.Check == categoryDirective && f.Message == staleDirective {
			stale[fileLine{f.Pos.File, f.Pos.Line}] = f.Pos
		}
	}
	matched := map[finding.Position]bool{}
	for i, f := range findings {
		if f.Severity == finding.Ignored || f.Check == categoryDirective {
			continue
		}
		if slices.ContainsFunc(f.Related, func(r finding.Related) bool { return strings.HasPrefix(r.Message, analyzer.SilencedBy) }) {
			findings[i].Severity = finding.Ignored
			continue
		}
		for _, r := range f.Related {
			at, ok := stale[fileLine{r.Pos.File, r.Pos.Line - 1}] // a directive applies to the line after it
			if ok && slices.Contains(ignoredChecks(lineOf(at.File, at.Line)), f.Check) {
				findings[i].Severity = finding.Ignored
				matched[at] = true
			}
		}
	}
	return slices.DeleteFunc(findings, func(f finding.Finding) bool {
		return f.Check == categoryDirective && f.Message == staleDirective && matched[f.Pos]
	})
}

// ignoredChecks is the checks a //lint:ignore directive on a line names.
func ignoredChecks(line string) []string {
	_, rest, ok := strings.Cut(line, "//lint:ignore ")
	if !ok {
		return nil
	}
	fields := strings.Fields(rest)
	if len(fields) < 2 { // lintcmd wants a reason
		return nil
	}
	return strings.Split(fields[0], ",")
}

// readLines is a file's lines, none when it cannot be read.
func readLines(file string) []string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
