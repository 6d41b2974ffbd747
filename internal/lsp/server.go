package lsp

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// server is the language server's state.
type server struct {
	out io.Writer
	mu  sync.Mutex // guards out

	// The worker owns what follows the events (see work).
	events   chan event
	done     sync.WaitGroup
	closed   bool
	cfg      analyzer.Config
	analyzer *analysis.Analyzer
	root     string   // the workspace's directory
	watch    bool     // the client registers file watchers on request
	program  *program // nil until loaded
	loading  bool     // a load runs in the background
	again    bool     // load again when it is done: what it loads changed
	loaded   chan loadResult
	opened   map[string]bool   // directories of the files opened
	overlays map[string][]byte // unsaved buffers, by file
	edited   map[string]bool   // buffers changed since they were last analyzed

	state sync.Mutex // guards fixes, shown and keys, which code actions and hovers read
	fixes map[string][]quickFix
	shown map[string]bool                // files with diagnostics published, to clear them
	keys  map[string]*analyzer.Inventory // each package's key uses, for hovers
}

// A quickFix is a suggested fix offered as a code action on its
// diagnostic's range.
type quickFix struct {
	diag  protocol.Diagnostic
	title string
	edits map[string][]protocol.TextEdit // by file URI: a fix may edit a key builder in another file
}

// An event is what the client said about a file: opened, saved, edited
// (its whole text), closed, or changed on disk.
type event struct {
	kind string
	file string
	text []byte
}

// Options are the server's settings.
type Options struct {
	Version string // the server's version, as initialize's answer names it
}

// Serve runs the server on in and out until the client says exit or closes
// in, and returns the process's exit code.
func Serve(in io.Reader, out io.Writer, opts Options) int {
	s := newServer(out)
	defer s.stop()
	r := bufio.NewReader(in)
	for {
		msg, err := protocol.Read(r)
		var bad *protocol.BadMessage
		switch {
		case errors.As(err, &bad):
			logf("%v", err) // the next message may be fine
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) {
				logf("reading a message: %v", err)
			}
			return 0 // stdin closed, or no more messages can be read
		}
		switch msg.Method {
		case "initialize":
			s.initialize(msg)
			s.reply(msg.ID, protocol.InitializeResult{
				Capabilities: protocol.ServerCapabilities{
					TextDocumentSync:   protocol.TextDocumentSyncOptions{OpenClose: true, Save: true, Change: protocol.SyncFull},
					CodeActionProvider: true,
					HoverProvider:      true,
				},
				ServerInfo: protocol.ServerInfo{Name: "crossslot", Version: opts.Version},
			})
		case "initialized":
			if s.watch {
				s.registerWatchers()
			}
		case "shutdown":
			s.stop() // finish the analysis under way
			s.write(protocol.Message{JSONRPC: "2.0", ID: msg.ID, Result: json.RawMessage("null")})
		case "exit":
			return 0
		case "textDocument/didOpen", "textDocument/didSave", "textDocument/didClose":
			var p protocol.DocumentParams
			if s.decode(msg, &p) {
				s.send(event{kind: strings.TrimPrefix(msg.Method, "textDocument/did"), file: p.TextDocument.URI})
			}
		case "textDocument/didChange":
			var p protocol.DidChangeTextDocumentParams
			if s.decode(msg, &p) && len(p.ContentChanges) > 0 {
				s.send(event{kind: "Change", file: p.TextDocument.URI, text: []byte(p.ContentChanges[len(p.ContentChanges)-1].Text)})
			}
		case "workspace/didChangeWatchedFiles":
			var p protocol.DidChangeWatchedFilesParams
			if s.decode(msg, &p) {
				for _, c := range p.Changes {
					s.send(event{kind: "Watched", file: c.URI})
				}
			}
		case "textDocument/codeAction":
			s.reply(msg.ID, s.codeActions(msg))
		case "textDocument/hover":
			s.reply(msg.ID, s.hover(msg))
		default:
			if len(msg.ID) > 0 && msg.Method != "" { // a request we do not serve
				s.write(protocol.Message{ID: msg.ID, Error: &protocol.ResponseError{Code: protocol.MethodNotFound, Message: "method not found: " + msg.Method}})
			}
		}
	}
}

// initialize reads the workspace's directory and whether the client
// watches files for the server.
func (s *server) initialize(msg *protocol.Message) {
	var p protocol.InitializeParams
	s.decode(msg, &p) // without params: the working directory, no watching
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	root := p.RootPath
	uris := []string{p.RootURI}
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, f.URI)
	}
	for _, uri := range uris {
		if dir, err := protocol.Path(uri); uri != "" && err == nil {
			root = dir
			break
		}
	}
	if root == "" {
		var err error
		if root, err = os.Getwd(); err != nil {
			logf("no workspace folder and no working directory: %v", err)
		}
	}
	s.root = root
}

// registerWatchers asks the client to tell the server of changes to Go
// files, go.mod and go.sum made outside the editor (a git pull, a branch
// switch, a generator).
func (s *server) registerWatchers() {
	var watch protocol.DidChangeWatchedFilesRegistrationOptions
	for _, glob := range []string{"**/*.go", "**/go.mod", "**/go.sum"} {
		watch.Watchers = append(watch.Watchers, protocol.FileSystemWatcher{GlobPattern: glob})
	}
	params, err := json.Marshal(protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "crossslot-watch", Method: "workspace/didChangeWatchedFiles", RegisterOptions: watch,
	}}})
	if err != nil {
		logf("registering file watchers: %v", err)
		return
	}
	s.write(protocol.Message{ID: json.RawMessage(`"crossslot-watch"`), Method: "client/registerCapability", Params: params})
}

func (s *server) write(m protocol.Message) {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		logf("%s: %v", cmp.Or(m.Method, "a reply"), err)
		if m.ID == nil {
			return // a notification: nobody waits for it
		}
		// A request waits for its reply: it gets an internal error.
		body, err = json.Marshal(protocol.Message{JSONRPC: "2.0", ID: m.ID, Error: &protocol.ResponseError{Code: protocol.InternalError, Message: "crossslot: " + err.Error()}})
		if err != nil {
			logf("the error reply: %v", err) // cannot be: it holds strings and a number
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (s *server) reply(id json.RawMessage, result any) {
	s.write(protocol.Message{ID: id, Result: result})
}

func (s *server) notify(method string, params any) {
	body, err := json.Marshal(params)
	if err != nil {
		logf("%s: %v", method, err)
		return
	}
	s.write(protocol.Message{Method: method, Params: body})
}

// decode reads a message's params into p; params that do not decode are
// logged, and the message is not acted on.
func (s *server) decode(msg *protocol.Message, p any) bool {
	if len(msg.Params) == 0 {
		return false
	}
	if err := json.Unmarshal(msg.Params, p); err != nil {
		logf("%s: params: %v", msg.Method, err)
		return false
	}
	return true
}

// logf writes what the server could not do to standard error, which
// editors keep as the server's log (standard output is the protocol's).
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crossslot lsp: "+format+"\n", args...)
}

func newServer(out io.Writer) *server {
	s := &server{out: out, fixes: map[string][]quickFix{}, shown: map[string]bool{}, keys: map[string]*analyzer.Inventory{},
		events: make(chan event, 1024), loaded: make(chan loadResult, 1),
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
func (s *server) send(ev event) {
	if !s.closed {
		s.events <- ev
	}
}

// stop lets the worker finish and waits for it.
func (s *server) stop() {
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
func (s *server) work() {
	defer s.done.Done()
	var quiet <-chan time.Time
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				return
			}
			batch := []event{ev}
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
func (s *server) handle(batch []event) (edited bool) {
	var opened, saved []string // directories, files
	for _, ev := range batch {
		file, err := protocol.Path(ev.file)
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
func (s *server) open(dir string) {
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
func (s *server) changed(saved []string) []*node {
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
func (s *server) checkEdited() {
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
func (s *server) recheck(changed []*node) {
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
	res := s.program.recheck(order, changed, s.overlays, s.analyzer, func(n *node) {
		dir := n.dir()
		if left[dir]--; left[dir] == 0 && s.opened[dir] {
			s.publishNodes(dir, s.program.inDir(dir))
			s.logAnalysis("analyzed again", dir, start)
		}
	})
	switch res {
	case broken:
		// Typed half-way: the last diagnostics stay until it checks.
		s.log(protocol.MessageLog, "crossslot: kept a package that does not type-check; its diagnostics are those of its last version that did")
	case reload:
		s.program = nil
		s.load()
		for dir := range s.opened {
			s.vet(dir)
		}
	}
}

// An loadResult is a load's outcome.
type loadResult struct {
	program  *program
	err      error
	overlays map[string][]byte // as the load saw them
	dirs     []string          // the directories opened when it started
	start    time.Time
}

// load loads the program in the background: the workspace's packages (or,
// in a large workspace, those of the directories opened) and every
// directory opened, with the unsaved buffers.
func (s *server) load() {
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
		p, err := loadProgram(root, loadPatterns(root, dirs), overlays, s.analyzer, analyzer.NewGate(&s.cfg))
		s.loaded <- loadResult{program: p, err: err, overlays: overlays, dirs: dirs, start: start}
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
func (s *server) adopt(res loadResult) {
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
			if s.program.recheck(s.program.affected(changed, nil), changed, s.overlays, s.analyzer, func(*node) {}) == reload {
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

func (s *server) logAnalysis(how, dir string, start time.Time) {
	s.log(protocol.MessageLog, fmt.Sprintf("crossslot: %s %s in %v", how, dir, time.Since(start).Round(time.Millisecond)))
}

// vet publishes a directory's diagnostics as go vet finds them, with this
// executable as its tool: it reuses the build cache and go vet's facts.
func (s *server) vet(dir string) {
	start := time.Now()
	found, files, err := vetDir(dir)
	if err != nil {
		s.logMessage(fmt.Sprintf("crossslot: go vet in %s: %v", dir, err))
		if files == nil {
			return
		}
	}
	s.publish(dir, files, found)
	s.logAnalysis("vetted", dir, start)
}

// publishNodes publishes the diagnostics of the program's packages of a
// directory.
func (s *server) publishNodes(dir string, nodes []*node) {
	fset := s.program.fset
	var files []string
	var found []finding.Finding
	for _, n := range nodes {
		files = append(files, n.pkg.GoFiles...)
		for _, d := range n.diags {
			found = append(found, finding.FromAnalysis(fset, d, severity(d.Category)))
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

// logMessage shows the user what the server could not do.
func (s *server) logMessage(msg string) {
	s.log(protocol.MessageError, msg)
}

// log writes a message of a type to the client's log.
func (s *server) log(typ int, msg string) {
	s.notify("window/logMessage", protocol.LogMessageParams{Type: typ, Message: msg})
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

// hover answers a hover over a key expression the analysis read: its
// template, hash tag and slot (or what the slot depends on), and the keys
// each command or transaction sends it with, as crossslot keys lists them.
// Nil (no hover) elsewhere.
func (s *server) hover(msg *protocol.Message) *protocol.Hover {
	var p protocol.HoverParams
	if !s.decode(msg, &p) {
		return nil
	}
	file, err := protocol.Path(p.TextDocument.URI)
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
						with[u.Keys[other].Template] = analyzer.WorseSlots(with[u.Keys[other].Template], pair.Slots)
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
		others = append(others, fmt.Sprintf("`%s` (%s)", t, analyzer.SlotsWords[v]))
	}
	sort.Strings(others)
	if len(others) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(others, ", "))
	}
	sp := ref.Span
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: "markdown", Value: b.String()},
		Range: &protocol.Range{Start: protocol.Position{Line: sp.Line - 1, Character: sp.Column - 1},
			End: protocol.Position{Line: sp.EndLine - 1, Character: sp.EndColumn - 1}},
	}
}
