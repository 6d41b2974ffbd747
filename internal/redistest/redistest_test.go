package redistest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv("REDISTEST_CHILD") != "" {
		summaryTTY = "" // standard error, where the parent reads it
	}
	os.Exit(Main(m))
}

// TestSkippedLiveTestsAreSummarized runs this test binary again without
// the servers' variables: its live test skips, and Main says so in one line.
func TestSkippedLiveTestsAreSummarized(t *testing.T) {
	if os.Getenv("REDISTEST_CHILD") != "" {
		ClusterAddr(t)
		t.Fatal("ClusterAddr returned without a server")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSkippedLiveTestsAreSummarized$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, ClusterAddrEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "REDISTEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
	want := "crossslot: redistest: 1 test skipped, " + ClusterAddrEnv + " not set (bash .ci/run starts the servers and runs them all)\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("the child printed:\n%s\nwant the line %q", out, want)
	}
}
