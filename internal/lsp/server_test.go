package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/finding/findingtest"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// TestSeverityFromTheTable: the language server's error/warning split is the
// table of checks' Error, as in every front end.
func TestSeverityFromTheTable(t *testing.T) {
	for _, c := range analyzer.Checks() {
		want := finding.Warning
		if c.Error {
			want = finding.Error
		}
		if got := severity(c.Name); got != want {
			t.Errorf("%s: LSP severity %s, the table says Error=%v", c.Name, got, c.Error)
		}
	}
	if severity(analyzer.CategoryScriptSlot) != finding.Error {
		t.Error("scriptslot is an error: the script fails on a cluster")
	}
	if severity(analyzer.CategoryHotTag) != finding.Warning {
		t.Error("hottag is a warning: an opt-in check of how keys spread")
	}
}

// notShown is what of a finding the language server leaves out, and why.
var notShown = map[string]string{
	"End.File":                   "a range lies in its start's document",
	"Related[0].End.File":        "as End.File",
	"Fixes[0].Edits[0].End.File": "as End.File",
}

// TestEveryFieldIsPublished: each field of a finding reaches the client, in
// the diagnostic published or in the code action that offers its fix.
func TestEveryFieldIsPublished(t *testing.T) {
	var out bytes.Buffer
	s := newServer(&out)
	defer s.stop()
	f := findingtest.Sample()
	s.publish("/src/sample", nil, []finding.Finding{f})
	actions := s.codeActions(&protocol.Message{Method: "textDocument/codeAction",
		Params: mustJSON(t, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: protocol.URI(f.Pos.File)},
			Range: protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 1000}}})})
	if len(actions) != 1 {
		t.Fatalf("%d code actions, want the sample's fix", len(actions))
	}
	var published []string
	r := bufio.NewReader(&out)
	for {
		m, err := protocol.Read(r)
		if err != nil {
			break
		}
		if m.Method == "textDocument/publishDiagnostics" {
			published = append(published, string(m.Params))
		}
	}
	text := strings.Join(published, "\n") + "\n" + string(mustJSON(t, actions))
	for _, leaf := range findingtest.Leaves(f) {
		if notShown[leaf.Path] != "" {
			continue
		}
		want := fmt.Sprint(leaf.Value)
		switch {
		case leaf.Path == "Severity":
			want = `"severity":1`
		case strings.HasSuffix(leaf.Path, ".File"):
			want = protocol.URI(want)
		case strings.HasSuffix(leaf.Path, ".Line"):
			want = fmt.Sprintf(`"line":%d`, leaf.Value.(int)-1)
		case strings.HasSuffix(leaf.Path, ".Column"):
			want = fmt.Sprintf(`"character":%d`, leaf.Value.(int)-1)
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s (%v) is not published (%s), nor said why in notShown:\n%s", leaf.Path, leaf.Value, want, text)
		}
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
