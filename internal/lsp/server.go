package lsp

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
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

func newServer(out io.Writer) *server {
	s := &server{out: out, fixes: map[string][]quickFix{}, shown: map[string]bool{}, keys: map[string]*analyzer.Inventory{},
		events: make(chan event, 1024), loaded: make(chan loadResult, 1),
		opened: map[string]bool{}, overlays: map[string][]byte{}, edited: map[string]bool{}}
	s.cfg.OnInventory = func(inv *analyzer.Inventory) {
		s.state.Lock()
		s.keys[inv.Package] = inv
		s.state.Unlock()
	}
	s.cfg.OnInternalError = func(pkg, err string, at []string) {
		// The package is left unchecked; the server goes on.
		s.logMessage("crossslot: " + analyzer.NotChecked(pkg, err, at) + "\n(a bug of crossslot's: report it)")
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

// logMessage shows the user what the server could not do.
func (s *server) logMessage(msg string) {
	s.log(protocol.MessageError, msg)
}

// log writes a message of a type to the client's log.
func (s *server) log(typ int, msg string) {
	s.notify("window/logMessage", protocol.LogMessageParams{Type: typ, Message: msg})
}
