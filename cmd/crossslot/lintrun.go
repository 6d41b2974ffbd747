package main

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"

	"github.com/crossslot/crossslot/internal/finding"
)

// The standalone command's analysis is lintcmd's: it loads the packages,
// runs the checks with its cache, and applies //lint:ignore directives and
// staticcheck.conf. lintcmd writes its results only to os.Stdout, in the
// format -f names, and has no writer to give it; its "binary" format is the
// whole result (fixes, related positions, what a directive silenced) as a
// gob stream. runLintcmd runs lintcmd in this process in that format with
// os.Stdout pointed at a pipe for the length of the run, and decodes the
// stream into findings that crossslot's own formats write.

// lintcmdResult mirrors the gob encoding of lintcmd's result of one build
// configuration; gob matches fields by name.
type lintcmdResult struct {
	CheckedFiles []string
	Diagnostics  []struct {
		Diagnostic struct { // lintcmd embeds the runner's diagnostic
			Position, End  token.Position
			Category       string
			Message        string
			SuggestedFixes []struct {
				Message   string
				TextEdits []struct {
					Position, End token.Position
					NewText       []byte
				}
			}
			Related []struct {
				Position, End token.Position
				Message       string
			}
		}
		Severity uint8 // lintcmd's: 0 error, 1 warning, 2 ignored by a directive
	}
	Warnings []string
}

const lintcmdIgnored = 2

// runLintcmd runs execute, a lintcmd command whose -f is binary, and
// returns its findings (paths made absolute again: lintcmd writes them
// relative to the working directory in this format) and its exit code.
func runLintcmd(execute func() int) ([]finding.Finding, int, error) {
	out, code, err := captureStdout(execute)
	if err != nil || code != 0 {
		// lintcmd said why on standard error; whatever it wrote is not a result.
		return nil, code, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, 0, err
	}
	abs := func(p token.Position) finding.Position {
		file := p.Filename
		if file != "" && !filepath.IsAbs(file) {
			file = filepath.Join(cwd, filepath.FromSlash(file))
		}
		return finding.Position{File: file, Line: p.Line, Column: p.Column}
	}
	var findings []finding.Finding
	stream := bytes.NewReader(out)
	for {
		// One gob stream per build configuration (-matrix), each with its
		// own types: a decoder each. A bytes.Reader is an io.ByteReader,
		// so a decoder reads no further than its stream.
		var res lintcmdResult
		if err := gob.NewDecoder(stream).Decode(&res); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, 0, fmt.Errorf("reading lintcmd's results: %v", err)
		}
		for _, d := range res.Diagnostics {
			f := finding.Finding{
				Check:   ourCategory(d.Diagnostic.Category),
				Pos:     abs(d.Diagnostic.Position),
				End:     abs(d.Diagnostic.End),
				Message: d.Diagnostic.Message,
			}
			if d.Severity == lintcmdIgnored {
				f.Severity = finding.Ignored
			}
			for _, r := range d.Diagnostic.Related {
				f.Related = append(f.Related, finding.Related{Pos: abs(r.Position), End: abs(r.End), Message: r.Message})
			}
			for _, fix := range d.Diagnostic.SuggestedFixes {
				out := finding.Fix{Message: fix.Message}
				for _, e := range fix.TextEdits {
					out.Edits = append(out.Edits, finding.Edit{Pos: abs(e.Position), End: abs(e.End), New: string(e.NewText)})
				}
				f.Fixes = append(f.Fixes, out)
			}
			findings = append(findings, f)
		}
	}
	return finding.Sort(findings), 0, nil
}

// captureStdout runs run with os.Stdout writing to a pipe, and returns what
// it wrote.
func captureStdout(run func() int) (_ []byte, code int, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, 0, err
	}
	read := make(chan []byte)
	var readErr error
	go func() {
		b, err := io.ReadAll(r)
		readErr = err
		read <- b
	}()
	saved := os.Stdout
	os.Stdout = w
	func() {
		defer func() { os.Stdout = saved }()
		code = run()
	}()
	err = w.Close()
	out := <-read
	r.Close()
	return out, code, errors.Join(err, readErr)
}
