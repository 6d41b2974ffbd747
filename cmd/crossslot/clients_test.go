package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// clientsDir is a module that uses the real rueidis v1.0.79, valkey-go
// v1.0.79, redigo v1.9.3 and redisc v1.4.0.
const clientsDir = "../../testdata/clients"

func clientsReported(t *testing.T) (map[string][]string, []string) {
	t.Helper()
	funcAt, names := funcsOf(t, filepath.Join(clientsDir, "main.go"))
	reported := map[string][]string{}
	for _, d := range vetModule(t, clientsDir, "example.com/clients") {
		fn := funcAt(lineOf(t, d.Posn))
		reported[fn] = append(reported[fn], d.Message)
	}
	return reported, names
}

// TestOtherClientsOnRealModules vets the clients module: every bad* function
// gets exactly one crossslot diagnostic, good* ones none.
func TestOtherClientsOnRealModules(t *testing.T) {
	reported, names := clientsReported(t)
	bad := 0
	for _, fn := range names {
		switch msgs := reported[fn]; {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if len(msgs) != 1 {
				t.Errorf("%s: reported %q, want one diagnostic", fn, msgs)
			}
		case len(msgs) > 0:
			t.Errorf("%s: reported %q, want nothing", fn, msgs)
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
	cmd := exec.Command("go", "run", ".", "-addr", addr)
	cmd.Dir = clientsDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the clients module: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line+"\t", "\t", 3) // an ok line ends in an empty detail
		if len(f) != 3 {
			t.Fatalf("unexpected output line %q", line)
		}
		fn, result, detail := f[0], f[1], strings.TrimSuffix(f[2], "\t")
		failed := result == "panic" && strings.Contains(detail, "slot") ||
			result == "error" && strings.Contains(detail, "CROSSSLOT")
		switch isReported := len(reported[fn]) > 0; {
		case isReported && !failed:
			t.Errorf("%s: reported, but the cluster said %q", fn, line)
		case !isReported && result != "ok":
			t.Errorf("%s: not reported, but the cluster said %q", fn, line)
		}
		checked++
	}
	t.Logf("%d rueidis, valkey-go and redigo calls on %s agree with the analyzer", checked, addr)
	if checked < 12 {
		t.Fatalf("only %d calls ran", checked)
	}
}
