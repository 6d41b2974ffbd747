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
	expectEachBadOnce(t, "scripts", names, found, 5, "one script finding", func(_ string, d vetDiagnostic) bool {
		return strings.Contains("scriptslot undeclaredkey missingkey", d.Category)
	})
}

// TestScriptsGroundTruth runs the scripts on the live three-master cluster:
// every reported script fails (a key on another node: non local key; a
// missing KEYS: a nil argument), every other one succeeds.
func TestScriptsGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	found, _ := scriptFindings(t)
	ran := expectClusterAgrees(t, runScenarios(t, scriptsDir, addr), found, func(r scenarioRun) bool {
		return r.result == "error" && (strings.Contains(r.detail, "non local key") || strings.Contains(r.detail, "arguments must be strings"))
	})
	t.Logf("%d scripts on %s agree with the analyzer", ran, addr)
	if ran < 8 {
		t.Fatalf("only %d scripts ran", ran)
	}
}
