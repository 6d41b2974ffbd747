package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
)

// The language server: `crossslot lsp` speaks the Language Server Protocol
// on stdin and stdout, beside gopls (which loads no external analyzers,
// golang/go#59869). It publishes the diagnostics of every file of a Go
// file's package when the file is opened, saved or edited (unsaved buffers
// are analyzed after a short quiet spell), and when files change on disk;
// suggested fixes are offered as code actions. It keeps one loaded program
// for the workspace (lspprogram.go); the first open of a package the program
// does not hold yet is answered by go vet with this executable as its tool,
// which reuses the build cache and is as fast as go vet, while the program
// loads in the background. The protocol is written here: it takes a few
// messages, and the Go LSP libraries would bring their dependencies (a
// logger, JSON encoders, websockets) into every build of the analyzer,
// golangci-lint's included.

type lspServer struct {
	out io.Writer
	mu  sync.Mutex // guards out

	// The worker owns what follows the events (see work).
	events   chan lspEvent
	done     sync.WaitGroup
	closed   bool
	cfg      analyzer.Config
	analyzer *analysis.Analyzer
	root     string      // the workspace's directory
	watch    bool        // the client registers file watchers on request
	program  *lspProgram // nil until loaded
	loading  bool        // a load runs in the background
	again    bool        // load again when it is done: what it loads changed
	loaded   chan lspLoaded
	opened   map[string]bool   // directories of the files opened
	overlays map[string][]byte // unsaved buffers, by file
	edited   map[string]bool   // buffers changed since they were last analyzed

	state sync.Mutex // guards fixes, shown and keys, which code actions and hovers read
	fixes map[string][]lspFix
	shown map[string]bool                // files with diagnostics published, to clear them
	keys  map[string]*analyzer.Inventory // each package's key uses, for hovers
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

// An lspEvent is what the client said about a file: opened, saved, edited
// (its whole text), closed, or changed on disk.
type lspEvent struct {
	kind string
	file string
	text []byte
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
			s.initialize(msg.Params)
			s.reply(msg.ID, map[string]any{
				"capabilities": map[string]any{
					// change 1: every change sends the whole text
					"textDocumentSync":   map[string]any{"openClose": true, "save": true, "change": 1},
					"codeActionProvider": true,
					"hoverProvider":      true,
				},
				"serverInfo": map[string]string{"name": "crossslot", "version": version()},
			})
		case "initialized":
			if s.watch {
				s.registerWatchers()
			}
		case "shutdown":
			s.stop() // finish the analysis under way
			s.write(lspMessage{JSONRPC: "2.0", ID: msg.ID, Result: json.RawMessage("null")})
		case "exit":
			return 0
		case "textDocument/didOpen", "textDocument/didSave", "textDocument/didClose":
			var p struct {
				TextDocument struct{ URI string } `json:"textDocument"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				s.send(lspEvent{kind: strings.TrimPrefix(msg.Method, "textDocument/did"), file: p.TextDocument.URI})
			}
		case "textDocument/didChange":
			var p struct {
				TextDocument   struct{ URI string }    `json:"textDocument"`
				ContentChanges []struct{ Text string } `json:"contentChanges"`
			}
			if json.Unmarshal(msg.Params, &p) == nil && len(p.ContentChanges) > 0 {
				s.send(lspEvent{kind: "Change", file: p.TextDocument.URI, text: []byte(p.ContentChanges[len(p.ContentChanges)-1].Text)})
			}
		case "workspace/didChangeWatchedFiles":
			var p struct {
				Changes []struct{ URI string } `json:"changes"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				for _, c := range p.Changes {
					s.send(lspEvent{kind: "Watched", file: c.URI})
				}
			}
		case "textDocument/codeAction":
			s.reply(msg.ID, s.codeActions(msg.Params))
		case "textDocument/hover":
			s.reply(msg.ID, s.hover(msg.Params))
		default:
			if len(msg.ID) > 0 && msg.Method != "" { // a request we do not serve
				s.write(lspMessage{JSONRPC: "2.0", ID: msg.ID, Error: map[string]any{"code": -32601, "message": "method not found: " + msg.Method}})
			}
		}
	}
}

// initialize reads the workspace's directory and whether the client
// watches files for the server.
func (s *lspServer) initialize(params json.RawMessage) {
	var p struct {
		RootURI          string `json:"rootUri"`
		RootPath         string `json:"rootPath"`
		WorkspaceFolders []struct {
			URI string `json:"uri"`
		} `json:"workspaceFolders"`
		Capabilities struct {
			Workspace struct {
				DidChangeWatchedFiles struct {
					DynamicRegistration bool `json:"dynamicRegistration"`
				} `json:"didChangeWatchedFiles"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	json.Unmarshal(params, &p)
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	root := p.RootPath
	uris := []string{p.RootURI}
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, f.URI)
	}
	for _, uri := range uris {
		if dir, err := fileOf(uri); uri != "" && err == nil {
			root = dir
			break
		}
	}
	if root == "" {
		root, _ = os.Getwd()
	}
	s.root = root
}

// registerWatchers asks the client to tell the server of changes to Go
// files, go.mod and go.sum made outside the editor (a git pull, a branch
// switch, a generator).
func (s *lspServer) registerWatchers() {
	var watchers []map[string]any
	for _, glob := range []string{"**/*.go", "**/go.mod", "**/go.sum"} {
		watchers = append(watchers, map[string]any{"globPattern": glob})
	}
	params, err := json.Marshal(map[string]any{"registrations": []map[string]any{{
		"id": "crossslot-watch", "method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": watchers},
	}}})
	if err != nil {
		lspLog("registering file watchers: %v", err)
		return
	}
	s.write(lspMessage{ID: json.RawMessage(`"crossslot-watch"`), Method: "client/registerCapability", Params: params})
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
	body, err := json.Marshal(m)
	if err != nil {
		lspLog("%s: %v", cmp.Or(m.Method, "a reply"), err)
		if m.ID == nil {
			return // a notification: nobody waits for it
		}
		// A request waits for its reply: it gets an internal error.
		body, _ = json.Marshal(lspMessage{JSONRPC: "2.0", ID: m.ID, Error: map[string]any{"code": -32603, "message": "crossslot: " + err.Error()}})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (s *lspServer) reply(id json.RawMessage, result any) {
	s.write(lspMessage{ID: id, Result: result})
}

func (s *lspServer) notify(method string, params any) {
	body, err := json.Marshal(params)
	if err != nil {
		lspLog("%s: %v", method, err)
		return
	}
	s.write(lspMessage{Method: method, Params: body})
}

// lspLog writes what the server could not do to standard error, which
// editors keep as the server's log (standard output is the protocol's).
func lspLog(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crossslot lsp: "+format+"\n", args...)
}

func newLSPServer(out io.Writer) *lspServer {
	s := &lspServer{out: out, fixes: map[string][]lspFix{}, shown: map[string]bool{}, keys: map[string]*analyzer.Inventory{},
		events: make(chan lspEvent, 1024), loaded: make(chan lspLoaded, 1),
		opened: map[string]bool{}, overlays: map[string][]byte{}, edited: map[string]bool{}}
	s.cfg.OnInventory = func(inv *analyzer.Inventory) {
		s.state.Lock()
		s.keys[inv.Package] = inv
		s.state.Unlock()
	}
	s.analyzer = analyzer.New(&s.cfg)
	s.done.Add(1)
	go s.work()
	return s
}

// send hands an event to the worker.
func (s *lspServer) send(ev lspEvent) {
	if !s.closed {
		s.events <- ev
	}
}

// stop lets the worker finish and waits for it.
func (s *lspServer) stop() {
	if !s.closed {
		s.closed = true
		close(s.events)
	}
	s.done.Wait()
}

// quietSpell is how long the server waits after an edit of an unsaved
// buffer before it analyzes it: typing goes on meanwhile.
const quietSpell = 150 * time.Millisecond

// work handles the client's events in order. What queued up meanwhile is
// taken at once: a directory is analyzed once for several events.
func (s *lspServer) work() {
	defer s.done.Done()
	var quiet <-chan time.Time
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				return
			}
			batch := []lspEvent{ev}
		drain:
			for {
				select {
				case more, ok := <-s.events:
					if !ok {
						break drain
					}
					batch = append(batch, more)
				default:
					break drain
				}
			}
			if s.handle(batch) {
				quiet = time.After(quietSpell)
			}
		case res := <-s.loaded:
			s.adopt(res)
		case <-quiet:
			quiet = nil
			s.checkEdited()
		}
	}
}

// handle takes a batch of events; it reports whether an unsaved buffer
// changed, to be analyzed after the quiet spell.
func (s *lspServer) handle(batch []lspEvent) (edited bool) {
	var opened, saved []string // directories, files
	for _, ev := range batch {
		file, err := fileOf(ev.file)
		if err != nil {
			continue
		}
		switch ev.kind {
		case "Open":
			if strings.HasSuffix(file, ".go") && !slices.Contains(opened, filepath.Dir(file)) {
				opened = append(opened, filepath.Dir(file))
			}
		case "Save":
			delete(s.overlays, file) // the buffer is the file now
			delete(s.edited, file)
			saved = append(saved, file)
		case "Close":
			if _, ok := s.overlays[file]; ok {
				delete(s.overlays, file)
				delete(s.edited, file)
				saved = append(saved, file) // back to the file on disk
			}
		case "Change":
			if strings.HasSuffix(file, ".go") {
				s.overlays[file], s.edited[file] = ev.text, true
				edited = true
			}
		case "Watched":
			// every batch checks the files on disk (see changed)
		}
	}
	for _, dir := range opened {
		s.open(dir)
	}
	if s.program != nil {
		s.recheck(s.changed(saved))
	} else {
		for _, f := range saved {
			if s.opened[filepath.Dir(f)] {
				s.vet(filepath.Dir(f))
			}
		}
	}
	return edited
}

// open publishes a directory's diagnostics: from the program when it holds
// the directory's packages, else from go vet, while the program is loaded
// again with the directory.
func (s *lspServer) open(dir string) {
	start := time.Now()
	s.opened[dir] = true
	if s.program != nil {
		s.recheck(s.changed(nil)) // edits made on disk meanwhile
	}
	if s.program != nil {
		if nodes := s.program.inDir(dir); len(nodes) > 0 {
			s.publishNodes(dir, nodes)
			s.logAnalysis("published", dir, start)
			return
		}
	}
	s.vet(dir)
	if !s.loading {
		s.load() // with the directory; a load under way loads again after
	}
}

// changed is what the files changed since the program was checked: the
// packages of the files saved or changed on disk (their modification times
// tell, whether or not the client watches them), or nil and a load when
// the program must be loaded again.
func (s *lspServer) changed(saved []string) []*lspNode {
	c := s.program.changesOnDisk()
	if c.reload != "" {
		s.logMessage("crossslot: loading the workspace again: " + c.reload)
		s.program = nil
		s.load()
		for dir := range s.opened {
			s.vet(dir)
		}
		return nil
	}
	for _, f := range saved {
		for _, n := range s.program.holding(f) {
			if !slices.Contains(c.changed, n) {
				c.changed = append(c.changed, n)
			}
		}
	}
	return c.changed
}

// checkEdited analyzes the packages of the unsaved buffers edited since the
// last quiet spell.
func (s *lspServer) checkEdited() {
	if s.program == nil {
		return // the load takes the overlays
	}
	var edited []string
	for f := range s.edited {
		edited = append(edited, f)
	}
	clear(s.edited)
	s.recheck(s.changed(edited))
}

// recheck checks the changed packages and their importers again, and
// publishes each directory opened among them as soon as its packages are
// checked: the edited one first.
func (s *lspServer) recheck(changed []*lspNode) {
	if len(changed) == 0 || s.program == nil {
		return
	}
	start := time.Now()
	var edited []string
	for _, n := range changed {
		edited = append(edited, n.dir())
	}
	order := s.program.affected(changed, edited)
	left := map[string]int{} // packages to check, by directory
	for _, n := range order {
		left[n.dir()]++
	}
	res := s.program.recheck(order, changed, s.overlays, s.analyzer, func(n *lspNode) {
		dir := n.dir()
		if left[dir]--; left[dir] == 0 && s.opened[dir] {
			s.publishNodes(dir, s.program.inDir(dir))
			s.logAnalysis("analyzed again", dir, start)
		}
	})
	switch res {
	case broken:
		// Typed half-way: the last diagnostics stay until it checks.
		s.notify("window/logMessage", map[string]any{"type": 4, "message": "crossslot: kept a package that does not type-check; its diagnostics are those of its last version that did"})
	case reload:
		s.program = nil
		s.load()
		for dir := range s.opened {
			s.vet(dir)
		}
	}
}

// An lspLoaded is a load's outcome.
type lspLoaded struct {
	program  *lspProgram
	err      error
	overlays map[string][]byte // as the load saw them
	dirs     []string          // the directories opened when it started
	start    time.Time
}

// load loads the program in the background: the workspace's packages (or,
// in a large workspace, those of the directories opened) and every
// directory opened, with the unsaved buffers.
func (s *lspServer) load() {
	if s.loading {
		s.again = true
		return
	}
	s.loading, s.again = true, false
	overlays := maps.Clone(s.overlays)
	dirs := slices.Sorted(maps.Keys(s.opened))
	root := s.root
	go func() {
		start := time.Now()
		p, err := loadProgram(root, loadPatterns(root, dirs), overlays, s.analyzer)
		s.loaded <- lspLoaded{program: p, err: err, overlays: overlays, dirs: dirs, start: start}
	}()
}

// maxWorkspacePackages bounds the workspaces loaded whole: a larger one is
// loaded by the directories opened.
const maxWorkspacePackages = 300

// loadPatterns are what the program loads: the workspace's packages when
// they are few enough, and the directories opened outside them.
func loadPatterns(root string, opened []string) []string {
	var patterns []string
	covered := func(string) bool { return false }
	if n, ok := workspacePackages(root); ok && n <= maxWorkspacePackages {
		patterns = append(patterns, "./...")
		covered = func(dir string) bool {
			rel, err := filepath.Rel(root, dir)
			return err == nil && !strings.HasPrefix(rel, "..") && !inOtherModule(root, dir)
		}
	}
	for _, dir := range opened {
		if !covered(dir) {
			patterns = append(patterns, dir)
		}
	}
	return patterns
}

// workspacePackages counts the packages of the workspace's module.
func workspacePackages(root string) (int, bool) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return 0, false
	}
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return 0, false
	}
	return strings.Count(string(out), "\n"), true
}

// inOtherModule reports a directory below root that belongs to a module of
// its own.
func inOtherModule(root, dir string) bool {
	for d := dir; d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
	}
	return false
}

// adopt takes a loaded program: what changed while it loaded is checked
// again, and every directory opened is published from it.
func (s *lspServer) adopt(res lspLoaded) {
	s.loading = false
	if res.err != nil {
		s.logMessage(fmt.Sprintf("crossslot: loading %s: %v", s.root, res.err))
	} else {
		s.program = res.program
		var edited []string
		for f, text := range s.overlays {
			if !bytes.Equal(res.overlays[f], text) {
				edited = append(edited, f)
			}
		}
		for f := range res.overlays {
			if _, ok := s.overlays[f]; !ok {
				edited = append(edited, f) // closed or saved since
			}
		}
		if changed := s.changed(edited); s.program != nil {
			if s.program.recheck(s.program.affected(changed, nil), changed, s.overlays, s.analyzer, func(*lspNode) {}) == reload {
				s.program, s.again = nil, true
			}
		}
	}
	if s.program != nil {
		var dirs []string
		for dir := range s.opened {
			dirs = append(dirs, dir)
		}
		sort.Strings(dirs)
		for _, dir := range dirs {
			if nodes := s.program.inDir(dir); len(nodes) > 0 {
				s.publishNodes(dir, nodes)
				s.logAnalysis("loaded and analyzed", dir, res.start)
			} else if !slices.Contains(res.dirs, dir) {
				s.again = true // opened while it loaded
			}
		}
	}
	if s.again {
		s.load()
	}
}

func (s *lspServer) logAnalysis(how, dir string, start time.Time) {
	s.notify("window/logMessage", map[string]any{"type": 4, "message": fmt.Sprintf("crossslot: %s %s in %v", how, dir, time.Since(start).Round(time.Millisecond))})
}

// vet publishes a directory's diagnostics as go vet finds them, with this
// executable as its tool: it reuses the build cache and go vet's facts.
func (s *lspServer) vet(dir string) {
	start := time.Now()
	diags, files, err := vetDir(dir)
	if err != nil {
		s.logMessage(fmt.Sprintf("crossslot: go vet in %s: %v", dir, err))
		return
	}
	s.publish(dir, files, diags)
	s.logAnalysis("vetted", dir, start)
}

// An lspDiag is one diagnostic as published, with its file and fixes.
type lspDiag struct {
	file  string
	diag  map[string]any
	fixes []lspFix
}

// publishNodes publishes the diagnostics of the program's packages of a
// directory.
func (s *lspServer) publishNodes(dir string, nodes []*lspNode) {
	fset := s.program.fset
	var files []string
	var diags []lspDiag
	for _, n := range nodes {
		files = append(files, n.pkg.GoFiles...)
		for _, d := range n.diags {
			diags = append(diags, fromAnalysis(fset, d))
		}
	}
	s.publish(dir, files, diags)
}

// fromAnalysis makes an analysis diagnostic one to publish.
func fromAnalysis(fset *token.FileSet, d analysis.Diagnostic) lspDiag {
	posn := fset.Position(d.Pos)
	rng := toRange(fset, d.Pos, d.End)
	var related []map[string]any
	for _, r := range d.Related {
		related = append(related, relatedInformation(fset.Position(r.Pos).Filename, toRange(fset, r.Pos, r.End), r.Message))
	}
	diag := diagnostic(rng, d.Category, d.Message, related)
	out := lspDiag{file: posn.Filename, diag: diag}
	raw, err := json.Marshal(diag)
	if err != nil {
		lspLog("a fix's diagnostic: %v", err)
		return out // its fixes cannot be matched to it: offer none
	}
	for _, fix := range d.SuggestedFixes {
		edits := map[string][]lspTextEdit{}
		for _, e := range fix.TextEdits {
			uri := toURI(fset.Position(e.Pos).Filename)
			edits[uri] = append(edits[uri], lspTextEdit{Range: toRange(fset, e.Pos, e.End), NewText: string(e.NewText)})
		}
		out.fixes = append(out.fixes, lspFix{rng: rng, diag: raw, title: fix.Message, edits: edits})
	}
	return out
}

// diagnostic is an LSP diagnostic as published.
func diagnostic(rng lspRange, category, message string, related []map[string]any) map[string]any {
	diag := map[string]any{
		"range": rng, "severity": severity(category), "source": "crossslot",
		"code": category, "message": message,
	}
	if related != nil {
		diag["relatedInformation"] = related
	}
	return diag
}

func relatedInformation(file string, rng lspRange, message string) map[string]any {
	return map[string]any{"location": map[string]any{"uri": toURI(file), "range": rng}, "message": message}
}

// publish sends the diagnostics of a directory's files: every file listed,
// even without any, to clear what was shown before.
func (s *lspServer) publish(dir string, files []string, diags []lspDiag) {
	byFile := map[string][]map[string]any{}
	fixes := map[string][]lspFix{}
	for _, f := range files {
		byFile[f] = nil
	}
	seen := map[string]bool{} // a package and its test variant report the same
	for _, d := range diags {
		key := fmt.Sprint(d.file, d.diag["range"], d.diag["code"], d.diag["message"])
		if seen[key] {
			continue
		}
		seen[key] = true
		byFile[d.file] = append(byFile[d.file], d.diag)
		fixes[toURI(d.file)] = append(fixes[toURI(d.file)], d.fixes...)
	}
	s.state.Lock()
	defer s.state.Unlock()
	for f := range s.shown {
		if _, ok := byFile[f]; !ok && filepath.Dir(f) == dir {
			byFile[f] = nil
		}
	}
	names := slices.Sorted(maps.Keys(byFile))
	for _, f := range names {
		diags := byFile[f]
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

// severity is a finding's LSP severity, from the table of checks: an
// error for a check whose findings fail the standalone command's run by
// default (-fail), else a warning.
func severity(category string) int {
	if errorChecks[category] {
		return 1 // error
	}
	return 2 // warning
}

// errorChecks are the checks the table marks Error.
var errorChecks = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range analyzer.Checks() {
		m[c.Name] = c.Error
	}
	return m
}()

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

// hover answers a hover over a key expression the analysis read: its
// template, hash tag and slot (or what the slot depends on), and the keys
// each command or transaction sends it with, as crossslot keys lists them.
// Nil (no hover) elsewhere.
func (s *lspServer) hover(params json.RawMessage) any {
	var p struct {
		TextDocument struct{ URI string } `json:"textDocument"`
		Position     lspPosition          `json:"position"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	file, err := fileOf(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	line, col := p.Position.Line+1, p.Position.Character+1
	inside := func(sp analyzer.Span) bool {
		return sp.File == file && (line > sp.Line || line == sp.Line && col >= sp.Column) && (line < sp.EndLine || line == sp.EndLine && col < sp.EndColumn)
	}
	s.state.Lock()
	defer s.state.Unlock()
	var ref *analyzer.KeyRef
	with := map[string]string{}
	var sentBy []string
	for _, inv := range s.keys {
		for _, u := range inv.Uses {
			for i := range u.Keys {
				if !inside(u.Keys[i].Span) {
					continue
				}
				ref = &u.Keys[i]
				sentBy = append(sentBy, u.Command)
				for _, pair := range u.Pairs {
					other := -1
					switch i {
					case pair.A:
						other = pair.B
					case pair.B:
						other = pair.A
					}
					if other >= 0 && u.Keys[other].Template != ref.Template {
						with[u.Keys[other].Template] = worse(with[u.Keys[other].Template], pair.Slots)
					}
				}
			}
		}
	}
	if ref == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**key** `%s`\n\n", ref.Template)
	switch ref.TagKind {
	case "constant":
		fmt.Fprintf(&b, "hash tag `{%s}`, one constant: slot %d", ref.Tag, *ref.Slot)
	case "value":
		fmt.Fprintf(&b, "hash tag `{%s}`: the slot depends on its values", ref.Tag)
	case "empty":
		b.WriteString("empty hash tag `{}`: the whole key is hashed")
	case "unknown":
		b.WriteString("a value that may hold a brace comes first: its hash tag is not known")
	default:
		b.WriteString("no hash tag")
		if ref.Slot != nil {
			fmt.Fprintf(&b, ": slot %d", *ref.Slot)
		} else {
			b.WriteString(": the slot depends on its values")
		}
	}
	fmt.Fprintf(&b, "\n\nsent by %s", strings.Join(sentBy, ", "))
	var others []string
	for t, v := range with {
		others = append(others, fmt.Sprintf("`%s` (%s)", t, slotWords[v]))
	}
	sort.Strings(others)
	if len(others) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(others, ", "))
	}
	sp := ref.Span
	return map[string]any{
		"contents": map[string]string{"kind": "markdown", "value": b.String()},
		"range": lspRange{Start: lspPosition{Line: sp.Line - 1, Character: sp.Column - 1},
			End: lspPosition{Line: sp.EndLine - 1, Character: sp.EndColumn - 1}},
	}
}
