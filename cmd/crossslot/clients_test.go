package main

import (
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// clientsDir is a module that uses the real rueidis v1.0.79, valkey-go
// v1.0.79, redigo v1.9.3 and redisc v1.4.0.
const clientsDir = "../../testdata/clients"

func clientsReported(t *testing.T) (map[string][]vetDiagnostic, []string) {
	t.Helper()
	return findingsByFunc(t, clientsDir, "example.com/clients", nil)
}

// TestOtherClientsOnRealModules vets the clients module: every bad* function
// gets exactly one crossslot diagnostic, good* ones none.
func TestOtherClientsOnRealModules(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	reported, names := clientsReported(t)
	expectEachBadOnce(t, "clients", names, reported, 7, "one diagnostic", func(string, vetDiagnostic) bool { return true })
}

// TestOtherClientsGroundTruth runs the clients module on the live cluster:
// every call the analyzer reports panics in the rueidis or valkey-go
// cluster client's builder, or fails with CROSSSLOT (redigo through
// redisc); every other call succeeds.
func TestOtherClientsGroundTruth(t *testing.T) {
	addr := redistest.Addr(t)
	reported, _ := clientsReported(t)
	ran := expectClusterAgrees(t, runScenarios(t, clientsDir, addr), reported, func(r scenarioRun) bool {
		return r.result == "panic" && strings.Contains(r.detail, "slot") ||
			r.result == "error" && strings.Contains(r.detail, "CROSSSLOT")
	})
	t.Logf("%d rueidis, valkey-go and redigo calls on %s agree with the analyzer", ran, addr)
	if ran < 12 {
		t.Fatalf("only %d calls ran", ran)
	}
}
