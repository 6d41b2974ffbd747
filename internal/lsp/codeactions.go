package lsp

import (
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// codeActions offers the suggested fixes of the diagnostics in a range.
func (s *server) codeActions(msg *protocol.Message) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	var p protocol.CodeActionParams
	if !s.decode(msg, &p) {
		return out
	}
	s.state.Lock()
	defer s.state.Unlock()
	for _, f := range s.fixes[p.TextDocument.URI] {
		if rng := f.diag.Range; rng.End.Line < p.Range.Start.Line || rng.Start.Line > p.Range.End.Line {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title: f.title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{f.diag},
			Edit: &protocol.WorkspaceEdit{Changes: f.edits},
		})
	}
	return out
}
