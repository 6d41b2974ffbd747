package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/crossslot/crossslot/analyzer"
)

// categoryDirective is the category of a //lint:ignore or //lint:file-ignore
// directive that silenced nothing. lintcmd names it "staticcheck" and always
// fails the run on it; crossslot names it for what it is and lets -fail
// decide, like any check.
const categoryDirective = "directive"

// ourCategory is a lintcmd category as crossslot names it.
func ourCategory(category string) string {
	if category == "staticcheck" {
		return categoryDirective
	}
	return category
}

// finding is one diagnostic as lintcmd's JSON format writes it.
type finding struct {
	Code     string    `json:"code"`
	Severity string    `json:"severity,omitempty"`
	Location position  `json:"location"`
	End      position  `json:"end"`
	Message  string    `json:"message"`
	Related  []related `json:"related,omitempty"`
}

type position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type related struct {
	Location position `json:"location"`
	End      position `json:"end"`
	Message  string   `json:"message"`
}

// report runs lintcmd for the text, stylish and json formats and writes its
// findings itself. lintcmd asked for JSON with every finding (ignored ones
// marked "ignored", -fail all) gives what its own formatters lose: which
// findings a directive silenced, under -show-ignored too, and which checks
// -fail selects, stale directives included.
func report(fs *flag.FlagSet, args []string) int {
	format := fs.Lookup("f").Value.String()
	fail := failSet(fs.Lookup("fail").Value.String())
	showIgnored := fs.Lookup("show-ignored").Value.String() == "true"
	out, code := lintcmdOutput(args, "json")
	if code != exitClean && code != exitFindings {
		os.Stdout.Write(out)
		return code
	}

	var all []finding
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var f finding
		if json.Unmarshal(sc.Bytes(), &f) != nil || f.Code == "" {
			fmt.Fprintln(os.Stdout, sc.Text()) // not a finding: pass it on
			continue
		}
		f.Code = ourCategory(f.Code)
		all = append(all, f)
	}
	all = honourRelatedIgnores(all)

	var shown []finding
	var errors, warnings, ignored, notAnalyzed int
	for _, f := range all {
		switch {
		case f.Severity == "ignored":
			ignored++
			if !showIgnored {
				continue
			}
		case f.Code == "compile" || f.Code == "config":
			notAnalyzed++
			errors++
			f.Severity = "error"
		case fail[f.Code]:
			errors++
			f.Severity = "error"
		default:
			warnings++
			f.Severity = "warning"
		}
		shown = append(shown, f)
	}

	switch format {
	case "json":
		writeJSON(os.Stdout, shown)
	case "stylish":
		writeStylish(os.Stdout, shown, errors, warnings, ignored)
		explainHint(os.Stderr, shown)
	default:
		writeText(os.Stdout, shown)
		explainHint(os.Stderr, shown)
	}
	switch {
	case notAnalyzed > 0:
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (a path that matches nothing, or a load or type error above); exit 3")
		return exitNotAnalyzed
	case errors > 0:
		return exitFindings
	}
	return exitClean
}

// failSet is the categories a -fail list selects: checks by name, "all" (or
// "*") for every check and stale directives, "-name" to take one out.
func failSet(list string) map[string]bool {
	all := []string{categoryDirective}
	for _, c := range analyzer.Checks() {
		all = append(all, c.Name)
	}
	set := map[string]bool{}
	for _, elem := range strings.Split(strings.Trim(list, `"`), ",") {
		elem = strings.ToLower(strings.TrimSpace(elem))
		on := !strings.HasPrefix(elem, "-")
		elem = strings.TrimPrefix(elem, "-")
		if elem == "all" || elem == "*" {
			for _, name := range all {
				set[name] = on
			}
		} else if elem != "" {
			set[elem] = on
		}
	}
	return set
}

// lintcmdOutputEnv asks a crossslot process to print lintcmd's own output
// in a format (json or sarif) for the crossslot process that started it.
// lintcmd writes only to os.Stdout, so crossslot runs it in a child whose
// standard output is a pipe crossslot owns, and writes the findings itself.
const lintcmdOutputEnv = "CROSSSLOT_LINTCMD_OUTPUT"

// lintcmdOutput runs lintcmd on args in a child crossslot process and
// returns what it printed in format, and its exit code. The child's standard
// error is ours: load errors and lintcmd's warnings reach the user as they
// are.
func lintcmdOutput(args []string, format string) ([]byte, int) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crossslot: cannot run lintcmd:", err)
		return nil, exitNotAnalyzed
	}
	child := exec.Command(exe, args...)
	child.Env = append(os.Environ(), lintcmdOutputEnv+"="+format)
	child.Stderr = os.Stderr
	out, err := child.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, exitClean
	case errors.As(err, &exit) && exit.Exited():
		return out, exit.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "crossslot: lintcmd:", err)
	return out, exitNotAnalyzed
}

// lintcmdRaw is the child's side of lintcmdOutput: lintcmd itself, in the
// format asked for. For json, every finding is asked for, ignored ones
// marked "ignored" and every check failing (report decides what fails).
func lintcmdRaw(fs *flag.FlagSet, execute func() int, format string) int {
	settings := map[string]string{"f": format}
	if format == "json" {
		settings["show-ignored"], settings["fail"] = "true", "all"
	}
	for name, value := range settings {
		if err := fs.Set(name, value); err != nil {
			fmt.Fprintln(os.Stderr, "crossslot:", err)
			return exitUsage
		}
	}
	return execute()
}

// category is a finding's category as text and stylish output show it,
// marked when a directive silenced it (-show-ignored).
func category(f finding) string {
	if f.Severity == "ignored" {
		return f.Code + ", ignored"
	}
	return f.Code
}

// explainHint tells a reader of the human formats where the longer fix of
// each finding is: every message ends with a short one.
func explainHint(w io.Writer, findings []finding) {
	for _, f := range findings {
		if f.Code != categoryDirective && f.Code != "compile" && f.Code != "config" {
			fmt.Fprintf(w, "crossslot -explain CHECK says more about each check and how to fix it (e.g. crossslot -explain %s)\n", f.Code)
			return
		}
	}
}

// writeText writes lintcmd's text format: position relative to the working
// directory, message, category; related information indented below.
func writeText(w io.Writer, findings []finding) {
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s (%s)\n", shortPosition(f.Location), f.Message, category(f))
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s: %s\n", shortPosition(r.Location), r.Message)
		}
	}
}

// writeStylish writes lintcmd's stylish format: findings grouped by file, and
// a summary that counts what -fail selects as errors and what directives
// silenced as ignored.
func writeStylish(w io.Writer, findings []finding, errors, warnings, ignored int) {
	var tw *tabwriter.Writer
	prev := ""
	for _, f := range findings {
		file := f.Location.File
		if file == "" {
			file = "-"
		}
		if file != prev {
			if tw != nil {
				tw.Flush()
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, file)
			prev = file
			tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		}
		fmt.Fprintf(tw, "  (%d, %d)\t%s\t%s\n", f.Location.Line, f.Location.Column, category(f), f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(tw, "    (%d, %d)\t\t  %s\n", r.Location.Line, r.Location.Column, r.Message)
		}
	}
	if tw != nil {
		tw.Flush()
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, " ✖ %d problems (%d errors, %d warnings, %d ignored)\n", errors+warnings+ignored, errors, warnings, ignored)
}

// writeJSON writes one JSON object per finding, as lintcmd does; severity is
// "error" for what -fail selects, "warning" otherwise, "ignored" for what a
// directive silenced (under -show-ignored).
func writeJSON(w io.Writer, findings []finding) {
	enc := json.NewEncoder(w)
	for _, f := range findings {
		enc.Encode(f)
	}
}

// shortPosition is file:line:column with the file relative to the working
// directory when that is shorter, as lintcmd writes it.
func shortPosition(p position) string {
	s := p.File
	if s != "" {
		s = shortPath(s)
	}
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

// shortPath is path relative to the working directory when that is shorter.
func shortPath(path string) string {
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, path); err == nil && len(rel) < len(path) {
			return rel
		}
	}
	return path
}
