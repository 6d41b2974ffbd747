package plugin_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/plugin"
)

// TestOptInChecksAreSettings: each opt-in check of the analyzer's table is
// a setting, off unless set, and turned on for the analyzer built with it.
func TestOptInChecksAreSettings(t *testing.T) {
	optIn := 0
	for _, c := range analyzer.Checks() {
		if c.Flag == "" {
			continue
		}
		optIn++
		if !slices.Contains(plugin.SettingNames(), c.Flag) {
			t.Errorf("check %s: no setting %s", c.Name, c.Flag)
		}
		for _, on := range []bool{false, true} {
			p, err := plugin.New(map[string]any{c.Flag: on})
			if err != nil {
				t.Fatal(err)
			}
			as, _ := p.BuildAnalyzers()
			if got := as[0].Flags.Lookup(c.Flag).Value.String(); got != fmt.Sprint(on) {
				t.Errorf("setting %s: %v gave the analyzer %s=%s", c.Flag, on, c.Flag, got)
			}
		}
	}
	if optIn < 2 {
		t.Errorf("%d opt-in checks, want unprovable and hottag at least", optIn)
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"include-singlenode": true}, `crossslot settings: unknown setting "include-singlenode" (known settings: coverage, hot-tags, include-single-node, include-tests, inventory, proofs-only, same-values-only, strict, target)`},
		{map[string]any{"include-single-node": "yes"}, `setting include-single-node is true or false, not yes`},
		{map[string]any{"coverage": true}, `setting coverage is a string, not true`},
		{map[string]any{"target": "valkey10"}, `"valkey10" is not a target: unknown server "valkey10"; want latest`},
		{[]any{"include-single-node"}, `cannot unmarshal array`},
	} {
		_, err := plugin.New(tc.settings)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v): error %v, want one containing %q", tc.settings, err, tc.want)
		}
	}
}

// errorCount records analysistest's complaints instead of failing.
type errorCount struct{ n int }

func (e *errorCount) Errorf(format string, args ...any) { e.n++; _ = fmt.Sprintf(format, args...) }

// TestSettingsPerConfiguration builds two plugins with different settings,
// interleaved, and runs each on the single-node fixture: only the one with
// include-single-node finds its diagnostics, so no setting leaks between
// configurations.
func TestSettingsPerConfiguration(t *testing.T) {
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	build := func(settings any) *analysis.Analyzer {
		t.Helper()
		p, err := plugin.New(settings)
		if err != nil {
			t.Fatal(err)
		}
		if mode := p.GetLoadMode(); mode != "typesinfo" {
			t.Errorf("load mode %q, want typesinfo", mode)
		}
		as, err := p.BuildAnalyzers()
		if err != nil || len(as) != 1 {
			t.Fatalf("BuildAnalyzers: %v, %v", as, err)
		}
		return as[0]
	}
	with := build(map[string]any{"include-single-node": true})
	without := build(nil) // no settings block at all
	alsoWithout := build(map[string]any{"include-single-node": false})

	analysistest.Run(t, testdata, with, "singlenode") // every want matched
	analysistest.Run(t, testdata, build(map[string]any{"strict": true}), "strict")
	analysistest.Run(t, testdata, build(map[string]any{"proofs-only": true}), "proofsonly")
	for name, a := range map[string]*analysis.Analyzer{"no settings": without, "include-single-node: false": alsoWithout} {
		var missed errorCount
		analysistest.Run(&missed, testdata, a, "singlenode")
		if missed.n == 0 {
			t.Errorf("%s: reported the single-node calls", name)
		}
	}
}

// TestReadmeMentionsEverySetting: the settings table of
// docs/golangci-lint.md, the README's page on golangci-lint, has a row for
// every setting.
func TestReadmeMentionsEverySetting(t *testing.T) {
	page, err := os.ReadFile("../docs/golangci-lint.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range plugin.SettingNames() {
		if !strings.Contains(string(page), "| `"+name+"` |") {
			t.Errorf("docs/golangci-lint.md's settings table lacks %s", name)
		}
	}
}

// TestOneIssuePerFinding: golangci-lint makes each related position an
// issue of its own, so the plugin's findings carry none; a directive at a
// related position still silences its finding (the ignored fixture).
func TestOneIssuePerFinding(t *testing.T) {
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	p, err := plugin.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	n := 0
	for _, r := range analysistest.Run(t, testdata, as[0], "tx", "ignored") {
		for _, d := range r.Diagnostics {
			n++
			if len(d.Related) > 0 {
				t.Errorf("%s: a finding with %d related positions, each an issue in golangci-lint", r.Pass.Fset.Position(d.Pos), len(d.Related))
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d findings on the tx and ignored fixtures", n)
	}
}
