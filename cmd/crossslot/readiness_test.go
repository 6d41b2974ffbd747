package main

import (
	"slices"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// readinessDir is a module, built against the real go-redis v9.23.0, whose
// calls a cluster refuses or runs differently besides CROSSSLOT.
const readinessDir = "../../testdata/readiness"

// TestReadinessOnRealGoRedis: every bad* function is reported once, in one
// of the readiness checks' categories; good* ones are not.
func TestReadinessOnRealGoRedis(t *testing.T) {
	found, names := findingsByFunc(t, readinessDir, "example.com/readiness", nil)
	categories := []string{"database", "sortpattern", "onenode", "shardedpubsub"}
	expectEachBadOnce(t, "readiness", names, found, 10, "one finding of a readiness check", func(_ string, d vetDiagnostic) bool {
		return slices.Contains(categories, d.Category)
	})
}

// TestReadinessGroundTruth runs the module on the three-master cluster:
// every reported call is refused or loses data as its message says (the
// scenario says so in its error), every other one succeeds.
func TestReadinessGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	found, _ := findingsByFunc(t, readinessDir, "example.com/readiness", nil)
	ran := expectClusterAgrees(t, runScenarios(t, readinessDir, addr), found, func(r scenarioRun) bool {
		return r.result == "error"
	})
	t.Logf("%d calls on %s agree with the analyzer", ran, addr)
	if ran < 17 {
		t.Fatalf("only %d calls ran", ran)
	}
}
