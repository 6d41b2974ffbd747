package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The first answer for a package the language server has not loaded yet
// comes from go vet, run with this executable as its tool: go vet reuses
// the build cache's export data and facts, so it answers in the time of a
// go vet run, where a load from source takes several.

// vetTimeout bounds one go vet run.
const vetTimeout = 2 * time.Minute

// vetDir runs go vet on the package in dir and returns its diagnostics, and
// the package's Go files, each to publish even without any.
func vetDir(dir string) ([]lspDiag, []string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), vetTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "vet", "-vettool="+self, "-json", ".")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run() // findings exit 0 with -json; a package that does not build fails
	var diags []lspDiag
	text := out.String()
	values, _ := vetJSONValues(text) // what decodes: a package that does not build has none
	for _, v := range values {
		var tree map[string]map[string]json.RawMessage
		json.Unmarshal(v, &tree)
		for _, byAnalyzer := range tree {
			var found []vetJSONDiagnostic
			if json.Unmarshal(byAnalyzer["crossslot"], &found) != nil {
				continue // an error, as {"error": ...}
			}
			for _, d := range found {
				diags = append(diags, d.lsp())
			}
		}
	}
	if err != nil && len(values) == 0 {
		return nil, nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(text))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return diags, files, nil
}

// vetJSONValues splits go vet -json's output into its JSON values, one per
// package analyzed (an empty one for a package without findings). They
// come after "# pkg" lines, on stdout or stderr as Go releases have
// changed, and the go command's own lines ("go: downloading ...") may come
// before, between or after them: every value that starts a line is
// decoded. It returns those decoded before any error.
func vetJSONValues(text string) ([]json.RawMessage, error) {
	var values []json.RawMessage
	for i := strings.Index(text, "{"); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return values, err
		}
		values = append(values, v)
		rest := text[i+int(dec.InputOffset()):]
		next := strings.Index(rest, "\n{")
		if next < 0 {
			break
		}
		i = len(text) - len(rest) + next + 1
	}
	return values, nil
}

// vetJSONDiagnostic is one diagnostic of go vet -json.
type vetJSONDiagnostic struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename   string `json:"filename"`
			Start, End int
			New        string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

// lsp makes it a diagnostic to publish, as fromAnalysis does.
func (d vetJSONDiagnostic) lsp() lspDiag {
	file, rng := vetRange(d.Posn, d.End)
	var related []map[string]any
	for _, r := range d.Related {
		f, rr := vetRange(r.Posn, r.End)
		related = append(related, relatedInformation(f, rr, r.Message))
	}
	diag := diagnostic(rng, d.Category, d.Message, related)
	out := lspDiag{file: file, diag: diag}
	raw, err := json.Marshal(diag)
	if err != nil {
		lspLog("a fix's diagnostic: %v", err)
		return out // its fixes cannot be matched to it: offer none
	}
	lines := map[string][]int{} // line starts by file, for the edits' offsets
fixes:
	for _, fix := range d.SuggestedFixes {
		edits := map[string][]lspTextEdit{}
		for _, e := range fix.Edits {
			starts, ok := lines[e.Filename]
			if !ok {
				if starts, err = lineStarts(e.Filename); err != nil {
					lspLog("a fix's file: %v", err)
					continue fixes // its edits' positions are not known: not offered
				}
				lines[e.Filename] = starts
			}
			uri := toURI(e.Filename)
			edits[uri] = append(edits[uri], lspTextEdit{Range: lspRange{Start: offsetPosition(starts, e.Start), End: offsetPosition(starts, e.End)}, NewText: e.New})
		}
		out.fixes = append(out.fixes, lspFix{rng: rng, diag: raw, title: fix.Message, edits: edits})
	}
	return out
}

// vetRange reads go vet's "file:line:col" positions.
func vetRange(posn, end string) (string, lspRange) {
	file, p := vetPosition(posn)
	e := p
	if end != "" {
		_, e = vetPosition(end)
	}
	return file, lspRange{Start: p, End: e}
}

func vetPosition(posn string) (string, lspPosition) {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return posn, lspPosition{}
	}
	j := strings.LastIndexByte(posn[:i], ':')
	if j < 0 {
		return posn, lspPosition{}
	}
	line, _ := strconv.Atoi(posn[j+1 : i])
	col, _ := strconv.Atoi(posn[i+1:])
	return posn[:j], lspPosition{Line: max(line-1, 0), Character: max(col-1, 0)}
}

// lineStarts are the offsets at which a file's lines start.
func lineStarts(file string) ([]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts, nil
}

func offsetPosition(starts []int, off int) lspPosition {
	line := 0
	for line+1 < len(starts) && starts[line+1] <= off {
		line++
	}
	return lspPosition{Line: line, Character: off - starts[line]}
}
