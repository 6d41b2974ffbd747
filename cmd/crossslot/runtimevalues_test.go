package main

import (
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// runtimeValuesDir is a module, built against the real go-redis v9.23.0,
// whose keys hold values drawn at run time: string ids, ints, a field.
const runtimeValuesDir = "../../testdata/runtimevalues"

// runtimeValuesFindings are the module's findings by scenario: the queue's
// transaction is reported in its method, which badFieldTwice runs, the
// loop over tags in tagUnion, which badLoopOverInput runs, the audit key in
// delOrders, which badConditionalAppend runs, and the loop's transaction in
// countVisits, which badLoopTransaction runs, and the call through the
// service's interface in accounts.move, which badInterfaceCall runs, and
// the key left "" in mgetLog, which badZeroOnPath runs, and the batch
// filled by index in mgetStock, which badIndexedBatch runs.
func runtimeValuesFindings(t *testing.T) (map[string][]vetDiagnostic, []string) {
	t.Helper()
	return findingsByFunc(t, runtimeValuesDir, "example.com/runtimevalues", func(d vetDiagnostic) string {
		switch {
		case strings.Contains(d.Message, "dedup on the paths that leave it unassigned"):
			return "badZeroOnPath" // reported in mgetLog, which it runs
		case strings.Contains(d.Message, "in redisStore.pair"):
			return "badInterfaceCall" // reported in accounts.move, which it runs
		case strings.Contains(d.Message, `"q:<q.name>:acks"`):
			return "badFieldTwice"
		case strings.Contains(d.Message, "for two different elements of tags"):
			return "badLoopOverInput" // reported in tagUnion, which it runs
		case strings.Contains(d.Message, `"audit:orders"`):
			return "badConditionalAppend" // reported in delOrders, which it runs
		case strings.Contains(d.Message, `"visits:<pages[i]>"`):
			return "badLoopTransaction" // reported in countVisits, which it runs
		case strings.Contains(d.Message, `"stock:<skus[i]>"`):
			return "badIndexedBatch" // reported in mgetStock, which it runs
		}
		return ""
	})
}

// TestRuntimeValuesOnRealGoRedis: every bad* function is reported once,
// near-sure or sure assuming its ids hold no brace; good* ones are not.
func TestRuntimeValuesOnRealGoRedis(t *testing.T) {
	found, names := runtimeValuesFindings(t)
	expectEachBadOnce(t, "runtimevalues", names, found, 17, "one crossslot diagnostic for run-time values", func(_ string, d vetDiagnostic) bool {
		return d.Category == "crossslot" && (strings.Contains(d.Message, "for all but about 1 in 16384") || strings.Contains(d.Message, "for every value of"))
	})
}

// TestRuntimeValuesGroundTruth runs the module on the three-master cluster
// with ids drawn at run time: every reported call is refused, every other
// one succeeds.
func TestRuntimeValuesGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	found, _ := runtimeValuesFindings(t)
	ran := expectClusterAgrees(t, runScenarios(t, runtimeValuesDir, addr), found, func(r scenarioRun) bool {
		return r.result == "error" && strings.Contains(r.detail, "CROSSSLOT")
	})
	t.Logf("%d calls with ids drawn at run time on %s agree with the analyzer", ran, addr)
	if ran < 24 {
		t.Fatalf("only %d calls ran", ran)
	}
}
