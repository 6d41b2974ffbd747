package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"honnef.co/go/tools/lintcmd"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
)

// categoryDirective is the check of directives (analyzer.CategoryDirective):
// a //crossslot:ignore that cannot be honoured, and a //lint:ignore or
// //lint:file-ignore that silenced nothing, which lintcmd names
// "staticcheck" and always fails the run on; crossslot names it for what it
// is and lets -fail decide, like any check.
const categoryDirective = analyzer.CategoryDirective

// ourCategory is a lintcmd category as crossslot names it.
func ourCategory(category string) string {
	if category == "staticcheck" {
		return categoryDirective
	}
	return category
}

// analyze runs lintcmd in this process (see runLintcmd) and returns every
// finding of the checks -checks selects, those that a directive silenced
// marked ignored, and its exit code when it could not run. Its results are
// cached apart from those of runs that drop what directives silence.
func analyze(cmd *lintcmd.Command, fs *flag.FlagSet, cfg *analyzer.Config) ([]finding.Finding, int) {
	cfg.ShowIgnored = true // report decides what to show
	if err := errors.Join(
		os.Setenv("STATICCHECK_CACHE", filepath.Join(os.Getenv("STATICCHECK_CACHE"), "show-ignored")),
		fs.Set("f", "binary"),
	); err != nil {
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return nil, exitUsage
	}
	findings, code, err := runLintcmd(cmd.Execute)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return nil, exitNotAnalyzed
	case code != 0:
		return nil, code
	}
	findings, err = recordOutputs.write(findings)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return nil, exitNotAnalyzed
	}
	return honourRelatedIgnores(findings), exitClean
}

// recordFiles are the files -crossslot.inventory and -crossslot.coverage
// name in the standalone command, which writes them from the analyzer's
// records (see newStandalone).
type recordFiles struct {
	inventory, coverage string
	// singleNode is each package's count of calls left out as single-node
	// (analyzer.Coverage.SingleNode), the largest of its analyses.
	singleNode map[string]int
}

var recordOutputs recordFiles

// write takes the records out of the findings and appends each package's
// inventory and coverage to the files, as the analyzer writes them under
// go vet: one JSON line a package, the inventory's positions relative to
// the working directory.
func (files recordFiles) write(all []finding.Finding) ([]finding.Finding, error) {
	cwd, _ := os.Getwd()
	var findings []finding.Finding
	var inventory, coverage []byte
	for _, f := range all {
		if f.Check != analyzer.CategoryRecord {
			findings = append(findings, f)
			continue
		}
		var rec analyzer.Record
		if err := json.Unmarshal([]byte(f.Message), &rec); err != nil {
			return nil, fmt.Errorf("reading the analysis's records: %v", err)
		}
		if c := rec.Coverage; c != nil && c.Panics > 0 {
			findings = append(findings, internalError(f.Pos, *c))
		}
		if c := rec.Coverage; c != nil && c.SingleNode > 0 && files.singleNode != nil {
			pkg := strings.TrimSuffix(c.Package, "_test")
			files.singleNode[pkg] = max(files.singleNode[pkg], c.SingleNode)
		}
		if rec.Inventory != nil && files.inventory != "" {
			rec.Inventory.RelativeTo(cwd)
			line, _ := json.Marshal(rec.Inventory)
			inventory = append(append(inventory, line...), '\n')
		}
		if rec.Coverage != nil && files.coverage != "" {
			line, _ := json.Marshal(rec.Coverage)
			coverage = append(append(coverage, line...), '\n')
		}
	}
	for _, out := range []struct {
		file string
		data []byte
	}{{files.inventory, inventory}, {files.coverage, coverage}} {
		if out.file == "" || len(out.data) == 0 {
			continue
		}
		f, err := os.OpenFile(out.file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		_, err = f.Write(out.data)
		if err := errors.Join(err, f.Close()); err != nil {
			return nil, err
		}
	}
	return findings, nil
}

// internalError is the finding that says crossslot failed on a package:
// the package, the panic and where it was raised.
func internalError(at finding.Position, c analyzer.Coverage) finding.Finding {
	msg := analyzer.NotChecked(c.Package, c.Panic, c.PanicAt) + "\n(a bug of crossslot's: set CROSSSLOT_DEBUG=1 for the whole stack, and report it)"
	return finding.Finding{Check: finding.CheckInternal, Pos: at, End: at, Message: msg}
}

// report runs the analysis and writes its findings in the format -f names
// (text, stylish, json or sarif). Each finding's severity is the table's
// (see analyzer.Check); whether it fails the run is -fail's (every check by
// default). What a directive silenced is shown only under -show-ignored,
// and counted always.
func report(cmd *lintcmd.Command, fs *flag.FlagSet, cfg *analyzer.Config, args []string) int {
	format := fs.Lookup("f").Value.String()
	fail := failSet(fs.Lookup("fail").Value.String())
	showIgnored := fs.Lookup("show-ignored").Value.String() == "true"
	all, code := analyze(cmd, fs, cfg)
	if code != exitClean {
		return code
	}

	var shown []finding.Finding
	var counts finding.Counts
	notAnalyzed, internal, failing := 0, 0, 0
	severity := checkSeverities()
	for _, f := range all {
		if f.Internal() {
			internal++
		}
		switch {
		case f.Severity == finding.Ignored:
			counts.Ignored++
			if !showIgnored {
				continue
			}
		case f.NotAnalyzed():
			notAnalyzed++
			counts.Errors++
			f.Severity = finding.Error
		case severity[f.Check] == finding.Error:
			counts.Errors++
			f.Severity = finding.Error
		default:
			counts.Warnings++
			f.Severity = finding.Warning
		}
		if fail[f.Check] && f.Severity != finding.Ignored {
			failing++
		}
		shown = append(shown, f)
	}

	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return exitNotAnalyzed
	}
	switch format {
	case "json":
		err = finding.WriteJSON(os.Stdout, shown)
	case "sarif":
		err = finding.WriteSARIF(os.Stdout, shown, sarifRun(cwd, args))
	case "stylish":
		err = finding.WriteStylish(os.Stdout, shown, counts)
		explainHint(os.Stderr, shown)
	default:
		err = finding.WriteText(os.Stdout, shown, cwd)
		explainHint(os.Stderr, shown)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crossslot: writing the findings:", err)
		return exitNotAnalyzed
	}
	skippedLine(os.Stderr, recordOutputs.singleNode)
	switch {
	case internal > 0:
		fmt.Fprintf(os.Stderr, "crossslot: an internal error of crossslot left %d package(s) unchecked (see above); please report it; exit 5\n", internal)
		return exitInternal
	case notAnalyzed > 0 && format == "sarif":
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (see the SARIF invocation's toolExecutionNotifications); exit 3")
		return exitNotAnalyzed
	case notAnalyzed > 0:
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (a path that matches nothing, or a load or type error above); exit 3")
		return exitNotAnalyzed
	case format == "sarif":
		return exitClean // SARIF reports findings as success: the upload fails the job
	case failing > 0:
		return exitFindings
	}
	return exitClean
}

// skippedLine ends a plain run with the count of calls it left out as
// single-node: a team on one server today sees that its code was not
// judged, and how to judge it.
func skippedLine(w io.Writer, singleNode map[string]int) {
	n := 0
	for _, c := range singleNode {
		n += c
	}
	if n == 0 {
		return
	}
	calls := "calls"
	if n == 1 {
		calls = "call"
	}
	fmt.Fprintf(w, "crossslot: %d %s on single-node clients not checked (multi-key commands, transactions, readiness sites); crossslot readiness judges them as a cluster's, as does -crossslot.include-single-node\n", n, calls)
}

// checkSeverities is each check's severity, from the table of checks.
func checkSeverities() map[string]finding.Severity {
	out := map[string]finding.Severity{}
	for _, c := range analyzer.Checks() {
		out[c.Name] = finding.Warning
		if c.Error {
			out[c.Name] = finding.Error
		}
	}
	return out
}

// failSet is the categories a -fail list selects: checks by name, "all" (or
// "*") for every check, directives included, "-name" to take one out.
func failSet(list string) map[string]bool {
	var all []string
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

// explainHint tells a reader of the human formats where the longer fix of
// each finding is: every message ends with a short one.
func explainHint(w io.Writer, findings []finding.Finding) {
	i := slices.IndexFunc(findings, func(f finding.Finding) bool { return f.Check != categoryDirective && !f.NotAnalyzed() })
	if i >= 0 {
		fmt.Fprintf(w, "crossslot -explain CHECK says more about each check and how to fix it (e.g. crossslot -explain %s)\n", findings[i].Check)
	}
}

// shortPath is path relative to the working directory when that is shorter.
func shortPath(path string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return path
	}
	return finding.ShortPath(path, cwd)
}

// analyzePackages runs the standalone analysis over args (analyzer flags,
// then packages) in this process, for the commands that read what it
// records besides findings (keys, readiness): the findings, those a
// directive silenced marked finding.Ignored, and those that say a package
// could not be analyzed.
func analyzePackages(args []string) (findings, notAnalyzed []finding.Finding, err error) {
	cmd, fs, cfg, a := newStandalone(args)
	if cwd, err := os.Getwd(); err == nil {
		if err := errors.Join(checkConfigs(cwd), checkTargetsUnlessGiven(cwd, a)); err != nil {
			return nil, nil, &exitError{exitUsage, err}
		}
	}
	if err := separateCache(a); err != nil {
		return nil, nil, &exitError{1, err}
	}
	all, code := analyze(cmd, fs, cfg)
	if code != exitClean {
		return nil, nil, &exitError{code, errors.New("the analysis failed")}
	}
	for _, f := range all {
		switch {
		case f.NotAnalyzed():
			notAnalyzed = append(notAnalyzed, f)
		default:
			findings = append(findings, f) // what a directive silenced too, marked Ignored
		}
	}
	return findings, notAnalyzed, nil
}

// exitError is an error that ends the command with its exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode is the exit code err asks for, 1 for any other error.
func exitCode(err error) int {
	if e, ok := errors.AsType[*exitError](err); ok {
		return e.code
	}
	return 1
}
