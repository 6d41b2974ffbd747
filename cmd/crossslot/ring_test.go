package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// ringDir is a module of multi-key commands and transactions on go-redis's
// Ring (v9.23.0), run against two plain servers.
const ringDir = "../../testdata/ring"

// TestRingOnRealGoRedis vets the ring module: every bad* function gets
// exactly one ringshard or onenode finding, good* ones none.
func TestRingOnRealGoRedis(t *testing.T) {
	t.Parallel()
	found, names := findingsByFunc(t, ringDir, "example.com/ring", nil)
	expectEachBadOnce(t, "ring", names, found, 10, "one ringshard or onenode finding", func(fn string, d vetDiagnostic) bool {
		return d.Category == "ringshard" && strings.Contains(d.Message, "on go-redis's Ring they may sit on different shards") ||
			d.Category == "onenode" && strings.Contains(d.Message, "on go-redis's Ring")
	})
}

// TestRingGroundTruth runs the ring module on a live Ring of two plain
// servers: every function crossslot reports goes wrong there (a key read
// as missing, written on another shard than its own, a transaction
// committed on two servers), and every silent one runs right.
func TestRingGroundTruth(t *testing.T) {
	addrs := redistest.RingAddrs(t)
	found, _ := findingsByFunc(t, ringDir, "example.com/ring", nil)
	cmd := exec.Command("go", "run", ".", "-addrs", addrs)
	cmd.Dir = ringDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running %s: %v\n%s", ringDir, err, out)
	}
	runs := parseScenarios(t, string(out))
	if len(runs) < 18 {
		t.Fatalf("%d scenarios ran, want 18:\n%s", len(runs), out)
	}
	for _, r := range runs {
		reported := len(found[r.name]) > 0
		if reported != (r.result == "wrong") {
			t.Errorf("%s: reported %v, but on the live Ring it ran %s (%s)", r.name, reported, r.result, r.detail)
		}
	}
	t.Logf("%d scenarios on a live Ring of two servers agree with the findings", len(runs))
}
