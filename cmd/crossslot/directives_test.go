package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/lsp/protocol"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// TestFailSelectsDirectives checks that -fail decides the exit status for
// every finding, a directive that silenced nothing included: lintcmd always
// failed on those, as "staticcheck". The directives fixture has findings of
// crossslot and emptytag, a stale directive, and ignored doubletag findings.
func TestFailSelectsDirectives(t *testing.T) {
	for _, tc := range []struct {
		fail string
		want int
	}{
		{"all", exitFindings},
		{"crossslot", exitFindings},
		{"doubletag", exitClean}, // its findings are all ignored; the stale directive is not selected
		{"directive", exitFindings},
		{"all,-crossslot,-emptytag", exitFindings}, // the stale directive is
		{"all,-crossslot,-emptytag,-directive", exitClean},
	} {
		_, stderr, code := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-fail", tc.fail, "./directives")
		if code != tc.want {
			t.Errorf("-fail %s: exit %d, want %d\n%s", tc.fail, code, tc.want, stderr)
		}
	}
	// Stylish counts errors and warnings by the table of checks, whatever
	// -fail selects.
	stdout, _, _ := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "stylish", "-fail", "emptytag", "./directives")
	if !strings.Contains(stdout, " ✖ 10 problems (3 errors, 1 warnings, 6 ignored)\n") || !strings.Contains(stdout, "directive  ") {
		t.Errorf("stylish with -fail emptytag:\n%s", stdout)
	}
	// JSON gives each finding the table's severity.
	stdout, _, _ = runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "json", "-fail", "emptytag", "./directives")
	severities := map[string]string{}
	for _, f := range decodeFindings(t, stdout) {
		severities[f.Check] = string(f.Severity)
	}
	if want := map[string]string{"crossslot": "error", "emptytag": "error", "directive": "warning"}; !maps.Equal(severities, want) {
		t.Errorf("JSON severities %v, want %v", severities, want)
	}
}

// TestShowIgnored checks that -show-ignored marks what directives silenced,
// counts it as ignored, and does not fail the run on it.
func TestShowIgnored(t *testing.T) {
	stdout, stderr, code := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-show-ignored", "-fail", "doubletag", "./directives")
	if code != exitClean {
		t.Errorf("-show-ignored -fail doubletag: exit %d, want 0 (the doubletag findings are ignored)\n%s", code, stderr)
	}
	for _, want := range []string{
		"directives/file.go:12:15: Get key \"{acme}:{7}:profile\" has a second hash tag after {acme}; only the first one counts; keep one pair of braces, around the part that decides the slot (doubletag, ignored)\n",
		"directives/line.go:14:28: MGet keys \"user:1:a\" (slot 323) and \"user:2:a\" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot (crossslot, ignored)\n",
		"directives/line.go:15:28: MGet keys \"user:3:a\" (slot 12067) and \"user:4:a\" (slot 10931) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot (crossslot)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-show-ignored output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, _ = runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "stylish", "-show-ignored", "./directives")
	if !strings.Contains(stdout, " ✖ 10 problems (3 errors, 1 warnings, 6 ignored)\n") || !strings.Contains(stdout, "(12, 15)    doubletag, ignored") {
		t.Errorf("stylish -show-ignored:\n%s", stdout)
	}
	stdout, _, _ = runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "json", "-show-ignored", "./directives")
	ignored := 0
	for _, f := range decodeFindings(t, stdout) {
		if f.Severity == "ignored" {
			ignored++
		}
	}
	if ignored != 6 {
		t.Errorf("%d JSON findings with severity ignored, want 6:\n%s", ignored, stdout)
	}
}

// TestStaticcheckConf checks that staticcheck.conf selects checks for the
// packages below it, that a check name crossslot does not know is an error
// (a typo would turn checks off silently), and that staticcheck's own names,
// in a file shared with staticcheck, are accepted.
func TestStaticcheckConf(t *testing.T) {
	for _, tc := range []struct {
		conf string
		code int
		want []string // findings, or the error
	}{
		{`checks = ["all", "-crossslot", "SA*", "-ST1000", "S1001"]`, exitFindings, []string{"line.go:23: emptytag"}}, // an error: the run fails
		{`checks = ["emptytag"]`, exitFindings, []string{"line.go:23: emptytag"}},
		{`checks = ["all", "-crosslot"]`, exitUsage, []string{`directives/staticcheck.conf: checks: unknown check "crosslot"`}},
	} {
		dir := cliWithConf(t, tc.conf)
		stdout, stderr, code := runIn(t, dir, fixtureEnv(), crossslotBin, "-f", "json", "./directives")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.conf, code, tc.code, stderr)
		}
		if tc.code == exitUsage {
			if !strings.Contains(stderr, tc.want[0]) {
				t.Errorf("%s: stderr %q, want %q", tc.conf, stderr, tc.want[0])
			}
			continue
		}
		var got []string
		for _, f := range decodeFindings(t, stdout) {
			got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(f.Pos.File), f.Pos.Line, f.Check))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.conf, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// decodeFindings reads the JSON format, one finding per line.
func decodeFindings(t *testing.T, stdout string) []finding.Finding {
	t.Helper()
	var out []finding.Finding
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		var f finding.Finding
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		out = append(out, f)
	}
	return out
}

// TestChecksInherit checks the -checks inherit,-NAME of docs/reference.md:
// the command line builds on staticcheck.conf's list instead of replacing it.
func TestChecksInherit(t *testing.T) {
	dir := cliWithConf(t, `checks = ["crossslot", "emptytag"]`)
	for _, tc := range []struct {
		checks string
		want   []string
	}{
		{"inherit,-crossslot", []string{"line.go:23: emptytag"}},
		{"crossslot", []string{"file.go:14: crossslot", "line.go:15: crossslot", "line.go:22: directive"}},
	} {
		got := lintJSONIn(t, dir, "-checks", tc.checks, "./directives")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("-checks %s over checks = [crossslot, emptytag]:\n%s\nwant:\n%s", tc.checks, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// cliWithConf is a copy of the cli fixture with conf as the directives
// package's staticcheck.conf.
func cliWithConf(t *testing.T, conf string) string {
	t.Helper()
	dir := cmdtest.CopyDir(t, cliDir)
	if err := os.WriteFile(filepath.Join(dir, "directives", "staticcheck.conf"), []byte(conf+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDirectivesAtRelatedPositions: a directive above the call that opens
// a transaction, or runs a script, silences the finding it relates to.
// Standalone, //lint:ignore and //crossslot:ignore both do, and
// -show-ignored lists what each silenced; go vet has only
// //crossslot:ignore.
func TestDirectivesAtRelatedPositions(t *testing.T) {
	got := lintJSON(t, "./related")
	want := markedLines(t, "related", "reported")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	stdout, _, _ := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "json", "-show-ignored", "./related")
	var ignored []string
	for _, f := range decodeFindings(t, stdout) {
		if f.Severity == "ignored" {
			ignored = append(ignored, fmt.Sprintf("%d: %s", f.Pos.Line, f.Check))
		}
	}
	if wantIgnored := []string{"17: crossslot", "23: crossslot", "39: scriptslot"}; strings.Join(ignored, ", ") != strings.Join(wantIgnored, ", ") {
		t.Errorf("-show-ignored lists %v as ignored, want %v", ignored, wantIgnored)
	}

	var vetLines []string
	for _, d := range vetJSON(t, cliDir, []string{"./related"})["example.com/cli/related"]["crossslot"] {
		vetLines = append(vetLines, fmt.Sprintf("%s: %s", d.Posn[strings.LastIndex(d.Posn, "related.go:"):strings.LastIndexByte(d.Posn, ':')], d.Category))
	}
	if wantVet := []string{"related.go:17: crossslot", "related.go:30: crossslot", "related.go:39: scriptslot", "related.go:42: scriptslot"}; strings.Join(vetLines, ", ") != strings.Join(wantVet, ", ") {
		t.Errorf("go vet reports %v, want %v (only //crossslot:ignore silences there)", vetLines, wantVet)
	}
}

// TestLanguageServerDirectivesAtRelatedPositions: in the editor,
// //crossslot:ignore above the call that opens a transaction silences its
// finding too (the language server has no //lint:ignore, as gopls has none).
func TestLanguageServerDirectivesAtRelatedPositions(t *testing.T) {
	dir, err := filepath.Abs(cliDir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, _ := startLSP(t, dir)
	file := filepath.Join(dir, "related", "related.go")
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(file), "languageId": "go", "version": 1, "text": ""}}, false)
	_, messages := c.analyzed(filepath.Join(dir, "related"), file)
	var keys []string
	for _, m := range messages {
		if k, _, ok := strings.Cut(m, " (slot"); ok {
			keys = append(keys, k)
		}
	}
	want := []string{`TxPipelined keys "visits:1"`, `TxPipelined keys "visits:5"`, `Eval script's INCR key "audit:total"`, `Eval script's INCR key "audit:total"`}
	if strings.Join(keys, "\n") != strings.Join(want, "\n") {
		t.Errorf("published:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
}
