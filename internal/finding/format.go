package finding

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
)

// The human formats are lintcmd's: text is one line a finding, position
// relative to the working directory, then the check; stylish groups the
// findings by file and ends with counts. Both indent related positions
// below their finding and list a fix by its message.

// WriteText writes findings one a line, related positions and fixes
// indented below; paths are shown relative to cwd where that is shorter.
func WriteText(w io.Writer, findings []Finding, cwd string) error {
	ew := &errWriter{w: w}
	for _, f := range findings {
		fmt.Fprintf(ew, "%s: %s (%s)\n", shortPosition(f.Pos, cwd), f.Message, label(f))
		for _, r := range f.Related {
			fmt.Fprintf(ew, "\t%s: %s\n", shortPosition(r.Pos, cwd), r.Message)
		}
		for _, fix := range f.Fixes {
			fmt.Fprintf(ew, "\tfix: %s\n", fix.Message)
		}
	}
	return ew.err
}

// Counts sums findings by severity, for stylish's last line.
type Counts struct{ Errors, Warnings, Ignored int }

// Count counts findings by severity.
func Count(findings []Finding) Counts {
	var c Counts
	for _, f := range findings {
		switch f.Severity {
		case Error:
			c.Errors++
		case Ignored:
			c.Ignored++
		default:
			c.Warnings++
		}
	}
	return c
}

// WriteStylish writes findings grouped by file (path as given, the line
// and column beside each), and the counts: those of every finding the run
// made, which may be more than it shows (ignored findings are counted and
// shown only under -show-ignored).
func WriteStylish(w io.Writer, findings []Finding, counts Counts) error {
	ew := &errWriter{w: w}
	var tw *tabwriter.Writer
	prev := ""
	for _, f := range findings {
		file := f.Pos.File
		if file == "" {
			file = "-"
		}
		if file != prev {
			if tw != nil {
				tw.Flush()
				fmt.Fprintln(ew)
			}
			fmt.Fprintln(ew, file)
			prev = file
			tw = tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
		}
		fmt.Fprintf(tw, "  (%d, %d)\t%s\t%s\n", f.Pos.Line, f.Pos.Column, label(f), f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(tw, "    (%d, %d)\t\t  %s\n", r.Pos.Line, r.Pos.Column, r.Message)
		}
		for _, fix := range f.Fixes {
			fmt.Fprintf(tw, "    \t\t  fix: %s\n", fix.Message)
		}
	}
	if tw != nil {
		tw.Flush()
		fmt.Fprintln(ew)
	}
	fmt.Fprintf(ew, " ✖ %d problems (%d errors, %d warnings, %d ignored)\n", counts.Errors+counts.Warnings+counts.Ignored, counts.Errors, counts.Warnings, counts.Ignored)
	return ew.err
}

// WriteJSON writes one JSON object a finding (JSON lines), as lintcmd does.
func WriteJSON(w io.Writer, findings []Finding) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, f := range findings {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

// label is a finding's check as the human formats show it, marked when a
// directive silenced it.
func label(f Finding) string {
	if f.Severity == Ignored {
		return f.Check + ", ignored"
	}
	return f.Check
}

// shortPosition is file:line:column, the file relative to cwd when that is
// shorter; "-" for no place.
func shortPosition(p Position, cwd string) string {
	s := ShortPath(p.File, cwd)
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// ShortPath is path relative to cwd when that is shorter.
func ShortPath(path, cwd string) string {
	if path == "" || cwd == "" {
		return path
	}
	if rel, err := filepath.Rel(cwd, path); err == nil && len(rel) < len(path) {
		return rel
	}
	return path
}

// errWriter keeps the first error of a run of writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
