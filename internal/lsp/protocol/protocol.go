// Package protocol is the part of the Language Server Protocol (3.17) that
// crossslot's language server speaks, as Go types: base messages, the
// lifecycle, text document synchronization, file watching, diagnostics,
// code actions and hovers. It is written here, not taken from a protocol
// module: those bring a logger and their own JSON stack into every build of
// the analyzer, golangci-lint's included, for the few dozen types below.
package protocol

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// Message is a JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID, and Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *ResponseError  `json:"error,omitempty"`
}

// ResponseError is a response's error.
type ResponseError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC error codes.
const (
	MethodNotFound = -32601
	InternalError  = -32603
)

// Position is a place in a document: a 0-based line and character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is the text from Start up to End.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// InitializeParams is what the server reads of initialize's params.
type InitializeParams struct {
	RootURI          string            `json:"rootUri,omitempty"`
	RootPath         string            `json:"rootPath,omitempty"`
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders,omitempty"`
	Capabilities     struct {
		Workspace struct {
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

// WorkspaceFolder is one folder of the workspace.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// InitializeResult is the answer to initialize.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

// ServerCapabilities is what the server serves.
type ServerCapabilities struct {
	TextDocumentSync   TextDocumentSyncOptions `json:"textDocumentSync"`
	CodeActionProvider bool                    `json:"codeActionProvider"`
	HoverProvider      bool                    `json:"hoverProvider"`
}

// TextDocumentSyncOptions says which document events the server wants.
type TextDocumentSyncOptions struct {
	OpenClose bool `json:"openClose"`
	Save      bool `json:"save"`
	Change    int  `json:"change"`
}

// SyncFull: every change sends the document's whole text.
const SyncFull = 1

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// DocumentParams is the params of didOpen, didSave and didClose, as far as
// the server reads them.
type DocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// DidChangeTextDocumentParams is didChange's params.
type DidChangeTextDocumentParams struct {
	TextDocument   TextDocumentIdentifier `json:"textDocument"`
	ContentChanges []struct {
		Text string `json:"text"`
	} `json:"contentChanges"`
}

// DidChangeWatchedFilesParams is didChangeWatchedFiles's params.
type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

// FileEvent is one file changed on disk.
type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type,omitempty"`
}

// RegistrationParams is client/registerCapability's params.
type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

// Registration asks the client for a capability.
type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

// DidChangeWatchedFilesRegistrationOptions names the files to watch.
type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

// FileSystemWatcher is one glob of files to watch.
type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

// PublishDiagnosticsParams is every diagnostic of one document.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Diagnostic is one finding in a document.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

// Diagnostic severities.
const (
	SeverityError   = 1
	SeverityWarning = 2
)

// DiagnosticRelatedInformation is another place a diagnostic points at.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// CodeActionParams asks for the actions in a range.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
}

// CodeAction is one action: here, a suggested fix.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// QuickFix is the kind of a code action that fixes a diagnostic.
const QuickFix = "quickfix"

// WorkspaceEdit is edits by document URI.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// TextEdit replaces a range's text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// HoverParams asks what to show at a position.
type HoverParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// Hover is what to show, and the range it is about.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// MarkupContent is text in a kind: "markdown" or "plaintext".
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// LogMessageParams is window/logMessage's params.
type LogMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// Message types of window/logMessage.
const (
	MessageError = 1
	MessageLog   = 4
)

// URI is the file URI of an absolute path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// Path is the path of a file URI.
func Path(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %s", uri)
	}
	return filepath.FromSlash(u.Path), nil
}

// Read reads one message: a header with its Content-Length, then its JSON
// body. A body that is not a message is a *BadMessage, after which the
// next message can be read.
func Read(r *bufio.Reader) (*Message, error) {
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
			if length, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, fmt.Errorf("lsp: bad Content-Length %q", v)
			}
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("lsp: a message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var m Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, &BadMessage{Err: err}
	}
	return &m, nil
}

// BadMessage is a message whose body is not a JSON-RPC message.
type BadMessage struct{ Err error }

func (e *BadMessage) Error() string { return "lsp: a message that is not JSON-RPC: " + e.Err.Error() }
func (e *BadMessage) Unwrap() error { return e.Err }
