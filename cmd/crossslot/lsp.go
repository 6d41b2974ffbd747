package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/crossslot/crossslot/analyzer"
)

// The language server: `crossslot lsp` speaks the Language Server Protocol
// on stdin and stdout, beside gopls (which loads no external analyzers,
// golang/go#59869). When a Go file is opened or saved it analyzes the file's
// package (as saved on disk, with its dependencies' facts) and publishes the
// diagnostics of every file of the package; suggested fixes are offered as
// code actions. The protocol is written here: it takes five messages, and
// the Go LSP libraries would bring their dependencies (a logger, JSON
// encoders, websockets) into every build of the analyzer, golangci-lint's
// included.

type lspServer struct {
	out   io.Writer
	mu    sync.Mutex // guards out
	fixes map[string][]lspFix
	shown map[string]bool // files with diagnostics published, to clear them
	cfg   analyzer.Config
}

type lspFix struct {
	rng   lspRange
	diag  json.RawMessage
	title string
	edits []lspTextEdit
}

type lspPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start lspPosition `json:"start"`
	End   lspPosition `json:"end"`
}

type lspTextEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type lspMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   any             `json:"error,omitempty"`
}

// serveLSP runs the server until the client says exit or closes stdin.
func serveLSP(in io.Reader, out io.Writer) int {
	s := &lspServer{out: out, fixes: map[string][]lspFix{}, shown: map[string]bool{}}
	r := bufio.NewReader(in)
	for {
		msg, err := readLSP(r)
		if err != nil {
			return 0 // stdin closed
		}
		switch msg.Method {
		case "initialize":
			s.reply(msg.ID, map[string]any{
				"capabilities": map[string]any{
					"textDocumentSync":   map[string]any{"openClose": true, "save": true},
					"codeActionProvider": true,
				},
				"serverInfo": map[string]string{"name": "crossslot", "version": version()},
			})
		case "shutdown":
			s.write(lspMessage{JSONRPC: "2.0", ID: msg.ID, Result: json.RawMessage("null")})
		case "exit":
			return 0
		case "textDocument/didOpen", "textDocument/didSave":
			var p struct {
				TextDocument struct{ URI string } `json:"textDocument"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				s.analyze(p.TextDocument.URI)
			}
		case "textDocument/codeAction":
			s.reply(msg.ID, s.codeActions(msg.Params))
		default:
			if len(msg.ID) > 0 && msg.Method != "" { // a request we do not serve
				s.write(lspMessage{JSONRPC: "2.0", ID: msg.ID, Error: map[string]any{"code": -32601, "message": "method not found: " + msg.Method}})
			}
		}
	}
}

func readLSP(r *bufio.Reader) (*lspMessage, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(strings.ToLower(line), "content-length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("lsp: a message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var m lspMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return &lspMessage{}, nil // not JSON: skip it
	}
	return &m, nil
}

func (s *lspServer) write(m lspMessage) {
	m.JSONRPC = "2.0"
	body, _ := json.Marshal(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (s *lspServer) reply(id json.RawMessage, result any) {
	s.write(lspMessage{ID: id, Result: result})
}

func (s *lspServer) notify(method string, params any) {
	body, _ := json.Marshal(params)
	s.write(lspMessage{Method: method, Params: body})
}

// analyze runs the analyzer on the package of a file and publishes the
// diagnostics of each of the package's files.
func (s *lspServer) analyze(uri string) {
	file, err := fileOf(uri)
	if err != nil || !strings.HasSuffix(file, ".go") {
		return
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: filepath.Dir(file), Tests: true}, ".")
	if err != nil || len(pkgs) == 0 {
		s.logMessage(fmt.Sprintf("crossslot: loading %s: %v", filepath.Dir(file), err))
		return
	}
	a := analyzer.New(&s.cfg)
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		s.logMessage("crossslot: " + err.Error())
		return
	}
	byFile := map[string][]map[string]any{}
	fixes := map[string][]lspFix{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			byFile[f] = nil // publish, even empty, to clear earlier diagnostics
		}
	}
	for _, act := range graph.Roots {
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			posn := fset.Position(d.Pos)
			rng := toRange(fset, d.Pos, d.End)
			diag := map[string]any{
				"range": rng, "severity": severity(d.Category), "source": "crossslot",
				"code": d.Category, "message": d.Message,
			}
			var related []map[string]any
			for _, r := range d.Related {
				related = append(related, map[string]any{
					"location": map[string]any{"uri": toURI(fset.Position(r.Pos).Filename), "range": toRange(fset, r.Pos, r.End)},
					"message":  r.Message,
				})
			}
			if related != nil {
				diag["relatedInformation"] = related
			}
			byFile[posn.Filename] = append(byFile[posn.Filename], diag)
			raw, _ := json.Marshal(diag)
			for _, fix := range d.SuggestedFixes {
				var edits []lspTextEdit
				for _, e := range fix.TextEdits {
					edits = append(edits, lspTextEdit{Range: toRange(fset, e.Pos, e.End), NewText: string(e.NewText)})
				}
				fixes[toURI(posn.Filename)] = append(fixes[toURI(posn.Filename)], lspFix{rng: rng, diag: raw, title: fix.Message, edits: edits})
			}
		}
	}
	for f := range s.shown {
		if _, ok := byFile[f]; !ok && filepath.Dir(f) == filepath.Dir(file) {
			byFile[f] = nil
		}
	}
	for f, diags := range byFile {
		if diags == nil {
			diags = []map[string]any{}
		}
		s.shown[f] = len(diags) > 0
		s.notify("textDocument/publishDiagnostics", map[string]any{"uri": toURI(f), "diagnostics": diags})
		s.fixes[toURI(f)] = fixes[toURI(f)]
	}
}

// codeActions offers the suggested fixes of the diagnostics in a range.
func (s *lspServer) codeActions(params json.RawMessage) []map[string]any {
	var p struct {
		TextDocument struct{ URI string } `json:"textDocument"`
		Range        lspRange             `json:"range"`
	}
	out := []map[string]any{}
	if json.Unmarshal(params, &p) != nil {
		return out
	}
	for _, f := range s.fixes[p.TextDocument.URI] {
		if f.rng.End.Line < p.Range.Start.Line || f.rng.Start.Line > p.Range.End.Line {
			continue
		}
		out = append(out, map[string]any{
			"title": f.title, "kind": "quickfix", "diagnostics": []json.RawMessage{f.diag},
			"edit": map[string]any{"changes": map[string]any{p.TextDocument.URI: f.edits}},
		})
	}
	return out
}

func (s *lspServer) logMessage(msg string) {
	s.notify("window/logMessage", map[string]any{"type": 1, "message": msg})
}

func severity(category string) int {
	if category == analyzer.CategoryCrossSlot || category == analyzer.CategoryScriptSlot {
		return 1 // error
	}
	return 2 // warning
}

// toRange converts a span to LSP's 0-based lines and columns (bytes, which
// are UTF-16 code units for the ASCII that keys and code mostly are).
func toRange(fset *token.FileSet, pos, end token.Pos) lspRange {
	p := fset.Position(pos)
	e := p
	if end.IsValid() {
		e = fset.Position(end)
	}
	return lspRange{
		Start: lspPosition{Line: max(p.Line-1, 0), Character: max(p.Column-1, 0)},
		End:   lspPosition{Line: max(e.Line-1, 0), Character: max(e.Column-1, 0)},
	}
}

func toURI(file string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
}

func fileOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %s", uri)
	}
	return filepath.FromSlash(u.Path), nil
}
