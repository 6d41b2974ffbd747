package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/crossslot/crossslot/analyzer"
)

// The language server: `crossslot lsp` speaks the Language Server Protocol
// on stdin and stdout, beside gopls (which loads no external analyzers,
// golang/go#59869). When a Go file is opened or saved it analyzes the file's
// package (as saved on disk, with its dependencies' facts) and publishes the
// diagnostics of every file of the package; suggested fixes are offered as
// code actions. What it loaded is kept between saves (lspcache.go). The protocol is written here: it takes five messages, and
// the Go LSP libraries would bring their dependencies (a logger, JSON
// encoders, websockets) into every build of the analyzer, golangci-lint's
// included.

type lspServer struct {
	out io.Writer
	mu  sync.Mutex // guards out

	// The worker analyzes what opens and saves ask for (see work).
	queue    chan lspRequest
	done     sync.WaitGroup
	closed   bool
	cfg      analyzer.Config
	analyzer *analysis.Analyzer
	sessions map[string]*lspSession // by directory (lspcache.go)

	state sync.Mutex // guards fixes and shown, which code actions read
	fixes map[string][]lspFix
	shown map[string]bool // files with diagnostics published, to clear them
}

type lspFix struct {
	rng   lspRange
	diag  json.RawMessage
	title string
	edits map[string][]lspTextEdit // by file URI: a fix may edit a key builder in another file
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
	s := newLSPServer(out)
	defer s.stop()
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
			s.stop() // finish the analysis under way
			s.write(lspMessage{JSONRPC: "2.0", ID: msg.ID, Result: json.RawMessage("null")})
		case "exit":
			return 0
		case "textDocument/didOpen", "textDocument/didSave":
			var p struct {
				TextDocument struct{ URI string } `json:"textDocument"`
			}
			if json.Unmarshal(msg.Params, &p) == nil && !s.closed {
				s.queue <- lspRequest{uri: p.TextDocument.URI, saved: msg.Method == "textDocument/didSave"}
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

func newLSPServer(out io.Writer) *lspServer {
	s := &lspServer{out: out, fixes: map[string][]lspFix{}, shown: map[string]bool{},
		queue: make(chan lspRequest, 256), sessions: map[string]*lspSession{}}
	s.analyzer = analyzer.New(&s.cfg)
	s.done.Add(1)
	go s.work()
	return s
}

// An lspRequest asks for a file's package to be analyzed: opened or saved.
type lspRequest struct {
	uri   string
	saved bool
}

// stop lets the worker finish and waits for it.
func (s *lspServer) stop() {
	if !s.closed {
		s.closed = true
		close(s.queue)
	}
	s.done.Wait()
}

// work analyzes the packages of the files opened and saved, in order. What
// queued up meanwhile is taken at once, one analysis a directory: a save
// makes the analyses asked for before it in its directory stale.
func (s *lspServer) work() {
	defer s.done.Done()
	for req := range s.queue {
		var dirs, saved []string
		add := func(req lspRequest) {
			file, err := fileOf(req.uri)
			if err != nil || !strings.HasSuffix(file, ".go") {
				return
			}
			dir := filepath.Dir(file)
			if !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
			if req.saved && !slices.Contains(saved, dir) {
				saved = append(saved, dir)
			}
		}
		add(req)
	drain:
		for {
			select {
			case more, ok := <-s.queue:
				if !ok {
					break drain
				}
				add(more)
			default:
				break drain
			}
		}
		for _, dir := range dirs {
			s.analyze(dir)
		}
		// Once the saves have settled, the packages that import what was
		// saved are analyzed again, loaded anew: their facts may change.
		if len(s.queue) == 0 && len(saved) > 0 {
			for _, dir := range s.dependentsOf(saved) {
				delete(s.sessions, dir)
				s.analyze(dir)
			}
		}
	}
}

// dependentsOf lists the directories of the sessions that import a package
// of one of dirs.
func (s *lspServer) dependentsOf(dirs []string) []string {
	var out []string
	for dir, sess := range s.sessions {
		if slices.Contains(dirs, dir) {
			continue
		}
		imports := false
		for _, r := range sess.roots {
			packages.Visit([]*packages.Package{r.pkg}, func(p *packages.Package) bool {
				if p != r.pkg && len(p.GoFiles) > 0 && slices.Contains(dirs, filepath.Dir(p.GoFiles[0])) {
					imports = true
				}
				return !imports
			}, nil)
		}
		if imports {
			out = append(out, dir)
		}
	}
	sort.Strings(out)
	return out
}

// analyze runs the analyzer on the packages of a directory and publishes
// the diagnostics of each of their files: again on the session's packages
// when it can (lspcache.go), else after loading them.
func (s *lspServer) analyze(dir string) {
	start := time.Now()
	sess := s.sessions[dir]
	var diags map[*packages.Package][]analysis.Diagnostic
	if sess != nil && !sess.stale() {
		diags, _ = sess.reanalyze(s.analyzer)
	}
	how := "analyzed again"
	if diags == nil {
		var err error
		sess, diags, err = loadSession(dir, s.analyzer)
		if err != nil {
			delete(s.sessions, dir)
			s.logMessage(fmt.Sprintf("crossslot: loading %s: %v", dir, err))
			return
		}
		s.sessions[dir] = sess
		how = "loaded and analyzed"
	}
	s.publish(sess, diags)
	s.notify("window/logMessage", map[string]any{"type": 4, "message": fmt.Sprintf("crossslot: %s %s in %v", how, dir, time.Since(start).Round(time.Millisecond))})
}

// publish sends the diagnostics of every file of the session's packages.
func (s *lspServer) publish(sess *lspSession, diags map[*packages.Package][]analysis.Diagnostic) {
	byFile := map[string][]map[string]any{}
	fixes := map[string][]lspFix{}
	for _, r := range sess.roots {
		for _, f := range r.pkg.GoFiles {
			byFile[f] = nil // publish, even empty, to clear earlier diagnostics
		}
	}
	fset := sess.fset
	seen := map[string]bool{} // a package and its test variant report the same
	for _, r := range sess.roots {
		for _, d := range diags[r.pkg] {
			if key := fmt.Sprint(fset.Position(d.Pos), d.Category, d.Message); seen[key] {
				continue
			} else {
				seen[key] = true
			}
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
				edits := map[string][]lspTextEdit{}
				for _, e := range fix.TextEdits {
					uri := toURI(fset.Position(e.Pos).Filename)
					edits[uri] = append(edits[uri], lspTextEdit{Range: toRange(fset, e.Pos, e.End), NewText: string(e.NewText)})
				}
				fixes[toURI(posn.Filename)] = append(fixes[toURI(posn.Filename)], lspFix{rng: rng, diag: raw, title: fix.Message, edits: edits})
			}
		}
	}
	s.state.Lock()
	defer s.state.Unlock()
	for f := range s.shown {
		if _, ok := byFile[f]; !ok && filepath.Dir(f) == sess.dir {
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
	s.state.Lock()
	defer s.state.Unlock()
	for _, f := range s.fixes[p.TextDocument.URI] {
		if f.rng.End.Line < p.Range.Start.Line || f.rng.Start.Line > p.Range.End.Line {
			continue
		}
		out = append(out, map[string]any{
			"title": f.title, "kind": "quickfix", "diagnostics": []json.RawMessage{f.diag},
			"edit": map[string]any{"changes": f.edits},
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
