package main

import (
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// precisionDir is a module, built against the real go-redis v9.23.0,
// redigo v1.9.3 and redisc v1.4.0, of shapes whose client talks to one node
// (oneNode*), correct scripts read exactly (good*), and their reported
// twins (bad*).
const precisionDir = "../../testdata/precision"

// TestPrecisionOnRealGoRedis: every bad* function is reported once, and
// nothing else: not the calls on single-node clients through wrappers,
// helpers, fields and guards, nor the correct scripts.
func TestPrecisionOnRealGoRedis(t *testing.T) {
	found, names := findingsByFunc(t, precisionDir, "example.com/precision", nil)
	expectEachBadOnce(t, "precision", names, found, 5, "one crossslot diagnostic", func(_ string, d vetDiagnostic) bool {
		return d.Category == "crossslot"
	})
}

// TestPrecisionGroundTruth runs the module: each silenced oneNode* shape
// succeeds on a single node, each good* one on the three-master cluster,
// and the cluster refuses each reported twin.
func TestPrecisionGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	t.Setenv("PRECISION_SINGLE_ADDR", redistest.PlainAddr(t))
	found, _ := findingsByFunc(t, precisionDir, "example.com/precision", nil)
	runs := runScenarios(t, precisionDir, addr)
	ran := expectClusterAgrees(t, runs, found, func(r scenarioRun) bool {
		return r.result == "error" && (strings.Contains(r.detail, "CROSSSLOT") || strings.Contains(r.detail, "EXECABORT"))
	})
	oneNode := 0
	for _, r := range runs {
		if strings.HasPrefix(r.name, "oneNode") {
			oneNode++
		}
	}
	t.Logf("%d shapes agree with the analyzer: %d silent on a single node, the rest on %s", ran, oneNode, addr)
	if ran < 14 || oneNode < 6 {
		t.Fatalf("only %d shapes ran (%d on one node)", ran, oneNode)
	}
}
