package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Bad input gets a clear error and a non-zero exit, never a panic.
func TestBadInput(t *testing.T) {
	bin := crossslotBin

	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module bad\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "bad.go"), []byte("package bad\n\nfunc f() { x := \n"), 0o644)

	for _, tc := range []struct {
		name     string
		args     []string
		dir      string
		wantExit int
		wantText string
	}{
		{"unknown flag", []string{"-bogus", "./..."}, ".", 2, "flag provided but not defined: -bogus"},
		{"malformed code", []string{"./..."}, mod, 3, "bad.go:4:1: syntax error: unexpected EOF"},
		{"a path that matches nothing", []string{"./nosuchdir"}, mod, 3, "some packages could not be analyzed"},
		{"unknown check", []string{"-checks", "all,-emptytags", "./..."}, ".", 2, `-checks: unknown check "emptytags"; the checks are crossslot, emptytag, doubletag, unclosedtag`},
		{"unknown check to fail on", []string{"-fail", "SA1000", "./..."}, ".", 2, `-fail: unknown check "sa1000"`},
		{"unknown format", []string{"-f", "xml", "./..."}, ".", 2, `unsupported output format "xml"; the formats are text, stylish, json and sarif`},
		{"unknown check to explain", []string{"-explain", "crosslot"}, ".", 2, `no check named "crosslot"`},
		{"mistyped subcommand", []string{"kyes", "./..."}, ".", 2, `unknown subcommand "kyes" (did you mean "keys"?)`},
		{"lsp with arguments", []string{"lsp", "./..."}, ".", 2, "crossslot lsp: takes no arguments"},
		{"readiness: unknown flag", []string{"readiness", "-bogus"}, ".", 2, "flag provided but not defined: -bogus"},
		{"readiness: malformed code", []string{"readiness", "./..."}, mod, 3, "bad.go:4:1: syntax error: unexpected EOF"},
		{"keys: malformed code", []string{"keys", "./..."}, mod, 3, "bad.go:4:1: syntax error: unexpected EOF"},
		{"keys: help names every format", []string{"keys", "-h"}, ".", 2, "usage: crossslot keys [-f text|md|json|html]"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = tc.dir
		out, err := cmd.CombinedOutput()
		exitErr, ok := err.(*exec.ExitError)
		if !ok {
			t.Errorf("%s: err %v, want exit %d\n%s", tc.name, err, tc.wantExit, out)
			continue
		}
		if exitErr.ExitCode() != tc.wantExit {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, exitErr.ExitCode(), tc.wantExit, out)
		}
		if !strings.Contains(string(out), tc.wantText) {
			t.Errorf("%s: output lacks %q:\n%s", tc.name, tc.wantText, out)
		}
		if strings.Contains(string(out), "panic:") || strings.Contains(string(out), "goroutine ") {
			t.Errorf("%s: panicked:\n%s", tc.name, out)
		}
		if strings.Contains(string(out), ":0:0:") {
			t.Errorf("%s: a message has no position but is printed with one (:0:0:):\n%s", tc.name, out)
		}
	}
}

// TestExitCodes: a clean package exits 0, findings 1, usage errors 2, and
// packages that could not be analyzed 3, in every output format.
func TestExitCodes(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	clean := scratchModule(t, "clean.go", "package clean\n")
	broken := brokenModule(t)
	for _, tc := range []struct {
		dir  string
		args []string
		want int
	}{
		{clean, []string{"./..."}, exitClean},
		{exampleDir, []string{"./..."}, exitFindings},
		{exampleDir, []string{"-f", "json", "./..."}, exitFindings},
		{clean, []string{"-nosuchflag", "./..."}, exitUsage},
		{broken, []string{"./..."}, exitNotAnalyzed},
		{broken, []string{"-f", "json", "./..."}, exitNotAnalyzed},
		{broken, []string{"-f", "stylish", "./..."}, exitNotAnalyzed},
		{broken, []string{"-f", "sarif", "./..."}, exitNotAnalyzed},
		{exampleDir, []string{"-f", "sarif", "./..."}, exitClean}, // SARIF reports findings as success
		{clean, []string{"./nosuchdir"}, exitNotAnalyzed},
	} {
		_, stderr, code := runIn(t, tc.dir, fixtureEnv(), crossslotBin, tc.args...)
		if code != tc.want {
			t.Errorf("crossslot %v in %s: exit %d, want %d\n%s", tc.args, filepath.Base(tc.dir), code, tc.want, stderr)
		}
	}
}

// scratchModule writes a module named after its one file's package into a
// temporary directory.
func scratchModule(t *testing.T, file, text string) string {
	t.Helper()
	dir := t.TempDir()
	name := strings.TrimSuffix(file, ".go")
	for name, text := range map[string]string{"go.mod": "module " + name + "\n\ngo 1.26\n", file: text} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// brokenModule is a module with a type error: crossslot cannot analyze it.
func brokenModule(t *testing.T) string {
	return scratchModule(t, "broken.go", "package broken\n\nfunc f() int { return \"x\" }\n")
}

// TestHelp: crossslot help names every subcommand, and lsp -h says what
// the language server takes; both exit 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"lsp", "-h"}} {
		out, err := exec.Command(crossslotBin, args...).CombinedOutput()
		if err != nil {
			t.Errorf("crossslot %v: %v\n%s", args, err, out)
			continue
		}
		want := []string{"keys", "readiness", "coverage", "lsp", "-explain", "-vettool"}
		if args[0] == "lsp" {
			want = []string{"usage: crossslot lsp", "standard input"}
		}
		for _, w := range want {
			if !strings.Contains(string(out), w) {
				t.Errorf("crossslot %v: output lacks %q:\n%s", args, w, out)
			}
		}
	}
}
