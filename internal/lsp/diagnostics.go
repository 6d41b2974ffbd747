package lsp

import (
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// publishNodes publishes the diagnostics of the program's packages of a
// directory.
//
// A package's findings may be reported by another: the one that wires its
// client judges those the client decides (main, usually). So the findings
// published for dir are those of every package of the program that are in
// dir's files, and only those.
func (s *server) publishNodes(dir string, nodes []*node) {
	fset := s.program.fset
	var files []string
	for _, n := range nodes {
		files = append(files, n.pkg.GoFiles...)
	}
	var found []finding.Finding
	for _, n := range s.program.nodes {
		for _, d := range n.diags {
			if filepath.Dir(fset.Position(d.Pos).Filename) == dir {
				found = append(found, finding.FromAnalysis(fset, d, severity(d.Category)))
			}
		}
	}
	s.publish(dir, files, found)
}

// publish sends the findings of a directory's files: every file listed,
// even without any, to clear what was shown before.
func (s *server) publish(dir string, files []string, found []finding.Finding) {
	byFile := map[string][]protocol.Diagnostic{}
	fixes := map[string][]quickFix{}
	for _, f := range files {
		byFile[f] = nil
	}
	for _, f := range finding.Sort(found) { // a package and its test variant report the same
		d := diagnostic(f)
		byFile[f.Pos.File] = append(byFile[f.Pos.File], d)
		uri := protocol.URI(f.Pos.File)
		for _, fix := range f.Fixes {
			fixes[uri] = append(fixes[uri], quickFix{diag: d, title: fix.Message, edits: textEdits(fix)})
		}
	}
	s.state.Lock()
	defer s.state.Unlock()
	for f := range s.shown {
		if _, ok := byFile[f]; !ok && filepath.Dir(f) == dir {
			byFile[f] = nil
		}
	}
	for _, f := range slices.Sorted(maps.Keys(byFile)) {
		diags := byFile[f]
		if diags == nil {
			diags = []protocol.Diagnostic{}
		}
		s.shown[f] = len(diags) > 0
		s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: protocol.URI(f), Diagnostics: diags})
		s.fixes[protocol.URI(f)] = fixes[protocol.URI(f)]
	}
}

// diagnostic is a finding as the protocol publishes it.
func diagnostic(f finding.Finding) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    toRange(f.Pos, f.End),
		Severity: protocol.SeverityWarning,
		Source:   "crossslot",
		Code:     f.Check,
		Message:  f.Message,
	}
	if f.Severity == finding.Error {
		d.Severity = protocol.SeverityError
	}
	for _, r := range f.Related {
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.URI(r.Pos.File), Range: toRange(r.Pos, r.End)},
			Message:  r.Message,
		})
	}
	return d
}

// textEdits are a fix's edits by file URI.
func textEdits(fix finding.Fix) map[string][]protocol.TextEdit {
	edits := map[string][]protocol.TextEdit{}
	for _, e := range fix.Edits {
		uri := protocol.URI(e.Pos.File)
		edits[uri] = append(edits[uri], protocol.TextEdit{Range: toRange(e.Pos, e.End), NewText: e.New})
	}
	return edits
}

// severity is a finding's severity, from the table of checks: an error for
// a check whose findings fail the standalone command's run by default
// (-fail), else a warning.
func severity(check string) finding.Severity {
	if errorChecks()[check] {
		return finding.Error
	}
	return finding.Warning
}

// errorChecks are the checks the table marks Error.
var errorChecks = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range analyzer.Checks() {
		m[c.Name] = c.Error
	}
	return m
})

// toRange converts a span to LSP's 0-based lines and columns (bytes, which
// are UTF-16 code units for the ASCII that keys and code mostly are).
func toRange(pos, end finding.Position) protocol.Range {
	if end.Line == 0 {
		end = pos
	}
	return protocol.Range{
		Start: protocol.Position{Line: max(pos.Line-1, 0), Character: max(pos.Column-1, 0)},
		End:   protocol.Position{Line: max(end.Line-1, 0), Character: max(end.Column-1, 0)},
	}
}

// judgedFor are the directories, other than its own, of the findings a
// package reported.
func (n *node) judgedFor(fset *token.FileSet) []string {
	var out []string
	for _, d := range n.diags {
		if dir := filepath.Dir(fset.Position(d.Pos).Filename); dir != n.dir() && !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}
