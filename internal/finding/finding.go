// Package finding is crossslot's one shape of a finding, and the formats
// that write it: every front end (the standalone command's text, stylish,
// JSON and SARIF, the language server, readiness) builds its findings here,
// from the analyzer's diagnostics as go vet, lintcmd or an in-process
// analysis hand them over, and writes them from here.
package finding

import (
	"cmp"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Severity is what a finding does to a run: an error fails it, a warning
// does not, and an ignored finding was silenced by a directive.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Ignored Severity = "ignored"
)

// A Finding is one diagnostic of one check. Its JSON is the standalone
// command's -f json line (lintcmd's shape, with fixes added).
type Finding struct {
	Check    string    `json:"code"`
	Severity Severity  `json:"severity,omitempty"`
	Pos      Position  `json:"location"`
	End      Position  `json:"end"`
	Message  string    `json:"message"`
	Related  []Related `json:"related,omitempty"`
	Fixes    []Fix     `json:"fixes,omitempty"`
}

// Position is a place in a file: an absolute path, and a line and a column
// (in bytes) that count from 1. Line 0 is the whole file, or no file.
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Related is another place a finding points at: the other key, the call
// that opens a transaction.
type Related struct {
	Pos     Position `json:"location"`
	End     Position `json:"end"`
	Message string   `json:"message"`
}

// Fix is a suggested fix: edits that apply together.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// Edit replaces the text from Pos to End with New.
type Edit struct {
	Pos Position `json:"location"`
	End Position `json:"end"`
	New string   `json:"new"`
}

// Checks whose findings are not findings about the code but say that a
// package could not be analyzed: lintcmd's names for a load or type error
// and for a bad configuration file.
// CheckInternal says crossslot itself failed on a package (a panic it
// recovered from): a bug of crossslot's, not of the code.
const (
	CheckCompile  = "compile"
	CheckConfig   = "config"
	CheckInternal = "internal"
)

// NotAnalyzed reports whether f says a package could not be analyzed, for
// whatever reason.
func (f Finding) NotAnalyzed() bool {
	return f.Check == CheckCompile || f.Check == CheckConfig || f.Check == CheckInternal
}

// Internal reports whether f says crossslot failed on a package.
func (f Finding) Internal() bool { return f.Check == CheckInternal }

// FromAnalysis is d as a finding of check d.Category, with severity sev.
func FromAnalysis(fset *token.FileSet, d analysis.Diagnostic, sev Severity) Finding {
	f := Finding{
		Check:    d.Category,
		Severity: sev,
		Pos:      at(fset, d.Pos),
		End:      at(fset, cmp.Or(d.End, d.Pos)),
		Message:  d.Message,
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, Related{Pos: at(fset, r.Pos), End: at(fset, cmp.Or(r.End, r.Pos)), Message: r.Message})
	}
	for _, fix := range d.SuggestedFixes {
		out := Fix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			out.Edits = append(out.Edits, Edit{Pos: at(fset, e.Pos), End: at(fset, cmp.Or(e.End, e.Pos)), New: string(e.NewText)})
		}
		f.Fixes = append(f.Fixes, out)
	}
	return f
}

func at(fset *token.FileSet, pos token.Pos) Position {
	if !pos.IsValid() {
		return Position{}
	}
	p := fset.Position(pos)
	return Position{File: p.Filename, Line: p.Line, Column: p.Column}
}

// Sort orders findings by place, then message and check, and drops exact
// duplicates: one file can be in several packages (a package and its
// tests), each of which reports it.
func Sort(fs []Finding) []Finding {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			strings.Compare(a.Message, b.Message),
			strings.Compare(a.Check, b.Check),
		)
	})
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.Pos == b.Pos && a.End == b.End && a.Message == b.Message && a.Check == b.Check && a.Severity == b.Severity
	})
}
