package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPortsAndAdapters: a service that calls its store through an interface
// implemented in a package it does not import (main wires them) is checked
// where main sees both, by the standalone command, which loads the whole
// program; each finding is reported once at the call, although two
// commands wire the service, and a directive at the call silences it. go
// vet analyzes each package apart: it reports nothing there, and its
// coverage report counts the calls as not decided.
func TestPortsAndAdapters(t *testing.T) {
	got := lintJSON(t, "./ports/...")
	want := markedLines(t, "ports/service", "reported")
	if len(want) < 2 {
		t.Fatalf("only %d marked lines in the fixture", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	for pkg, byAnalyzer := range vetJSON(t, cliDir, []string{"./ports/..."}, "-crossslot.coverage="+file) {
		for _, d := range byAnalyzer["crossslot"] {
			t.Errorf("go vet reported in %s: %s %s", pkg, d.Posn, d.Message)
		}
	}
	text, stderr, code := runIn(t, ".", nil, crossslotBin, "coverage", file)
	if code != 0 {
		t.Fatalf("crossslot coverage: exit %d\n%s", code, stderr)
	}
	for _, line := range []string{
		"not decided: 6 calls through the module's interfaces implemented in packages the caller does not import",
		"example.com/cli/ports/service: 6",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("coverage report lacks %q:\n%s", line, text)
		}
	}
}
