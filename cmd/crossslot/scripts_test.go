package main

import (
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// scriptsDir is a module that sends Lua scripts through the real go-redis,
// one from an embedded .lua file.
const scriptsDir = "../../testdata/scripts"

// scriptFindings vets the scripts module and returns, per function, the
// diagnostics reported for it: findings in the script literals are in the
// function; those in bump.lua are badEmbeddedScript's.
func scriptFindings(t *testing.T) (map[string][]vetDiagnostic, []string) {
	t.Helper()
	return findingsByFunc(t, scriptsDir, "example.com/scripts", func(d vetDiagnostic) string {
		if strings.Contains(d.Posn, "bump.lua:") {
			return "badEmbeddedScript"
		}
		return ""
	})
}

// TestScriptsOnRealGoRedis: every bad* script gets exactly one script
// finding, in its Lua; good* ones none.
func TestScriptsOnRealGoRedis(t *testing.T) {
	found, names := scriptFindings(t)
	bad := 0
	for _, fn := range names {
		switch ds := found[fn]; {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if len(ds) != 1 || !strings.Contains("scriptslot undeclaredkey missingkey", ds[0].Category) {
				t.Errorf("%s: reported %v, want one script finding", fn, ds)
			}
		case len(ds) > 0:
			t.Errorf("%s: reported %v, want nothing", fn, ds)
		}
	}
	if bad < 5 {
		t.Fatalf("only %d bad* functions in the scripts module", bad)
	}
}

// TestScriptsGroundTruth runs the scripts on the live three-master cluster:
// every reported script fails (a key on another node: non local key; a
// missing KEYS: a nil argument), every other one succeeds.
func TestScriptsGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	found, _ := scriptFindings(t)
	runs := runScenarios(t, scriptsDir, addr)
	for _, r := range runs {
		refused := r.result == "error" && (strings.Contains(r.detail, "non local key") || strings.Contains(r.detail, "arguments must be strings"))
		switch reported := len(found[r.name]) > 0; {
		case reported && !refused:
			t.Errorf("%s: reported, but the cluster said %v", r.name, r)
		case !reported && r.result != "ok":
			t.Errorf("%s: not reported, but the cluster said %v", r.name, r)
		}
	}
	t.Logf("%d scripts on %s agree with the analyzer", len(runs), addr)
	if len(runs) < 8 {
		t.Fatalf("only %d scripts ran", len(runs))
	}
}
