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
	reported, names := clientsReported(t)
	bad := 0
	for _, fn := range names {
		switch ds := reported[fn]; {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if len(ds) != 1 {
				t.Errorf("%s: reported %v, want one diagnostic", fn, ds)
			}
		case len(ds) > 0:
			t.Errorf("%s: reported %v, want nothing", fn, ds)
		}
	}
	if bad < 7 {
		t.Fatalf("only %d bad* functions in the clients module", bad)
	}
}

// TestOtherClientsGroundTruth runs the clients module on the live cluster:
// every call the analyzer reports panics in the rueidis or valkey-go
// cluster client's builder, or fails with CROSSSLOT (redigo through
// redisc); every other call succeeds.
func TestOtherClientsGroundTruth(t *testing.T) {
	addr := redistest.Addr(t)
	reported, _ := clientsReported(t)
	runs := runScenarios(t, clientsDir, addr)
	for _, r := range runs {
		failed := r.result == "panic" && strings.Contains(r.detail, "slot") ||
			r.result == "error" && strings.Contains(r.detail, "CROSSSLOT")
		switch isReported := len(reported[r.name]) > 0; {
		case isReported && !failed:
			t.Errorf("%s: reported, but the cluster said %v", r.name, r)
		case !isReported && r.result != "ok":
			t.Errorf("%s: not reported, but the cluster said %v", r.name, r)
		}
	}
	t.Logf("%d rueidis, valkey-go and redigo calls on %s agree with the analyzer", len(runs), addr)
	if len(runs) < 12 {
		t.Fatalf("only %d calls ran", len(runs))
	}
}
