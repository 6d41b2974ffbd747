package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// glideDir is a module that uses the real Valkey GLIDE v2.5.3 (its Rust
// core linked from the module's static library, with cgo).
const glideDir = "../../testdata/glide"

func glideReported(t *testing.T) (map[string][]vetDiagnostic, []string) {
	t.Helper()
	return findingsByFunc(t, glideDir, "example.com/glide", nil)
}

// TestGlideOnRealModule vets the glide module: every bad* function gets
// exactly one diagnostic, good* ones (GLIDE's split commands among them)
// none.
func TestGlideOnRealModule(t *testing.T) {
	t.Parallel()
	reported, names := glideReported(t)
	expectEachBadOnce(t, "glide", names, reported, 34, "one diagnostic", func(string, vetDiagnostic) bool { return true })
}

// TestGlideGroundTruth runs the glide module on the three-master cluster:
// every call the analyzer reports is refused by the server (CrossSlot, a
// database, SORT BY), by GLIDE (an atomic batch, BITOP's replaced error, a
// client configured for database 1), commits over a changed key whose
// WATCH GLIDE sent to another node, or sees one node's keys only (a raw
// SCAN, KEYS in an atomic batch, a keyspace-event subscription); every
// other call succeeds. GLIDE's core logs to standard output, so the module writes its
// results to a file.
func TestGlideGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	sameTargetAsServer(t, glideDir, addr)
	reported, _ := glideReported(t)
	results := filepath.Join(t.TempDir(), "results.txt")
	cmd := exec.Command("go", "run", ".", "-addr", addr, "-results", results)
	cmd.Dir = glideDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("running %s: %v\n%s", glideDir, err, out)
	}
	text, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	ran := expectClusterAgrees(t, parseScenarios(t, string(text)), reported, func(r scenarioRun) bool {
		return r.result == "error" && (strings.Contains(r.detail, "CrossSlot") || strings.Contains(r.detail, "not allowed in cluster mode") ||
			strings.Contains(r.detail, "denied in Cluster mode") || strings.Contains(r.detail, "refused to switch database") ||
			strings.Contains(r.detail, "bitop command execution failed") || // GLIDE replaces BITOP's CrossSlot with its own text
			strings.Contains(r.detail, "committed over a changed watched key") || strings.Contains(r.detail, "saw one node's keys only"))
	})
	t.Logf("%d GLIDE calls on %s agree with the analyzer", ran, addr)
	if ran < 49 {
		t.Fatalf("only %d calls ran", ran)
	}
}
