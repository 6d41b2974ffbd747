package plugin_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// TestGolangciLintEcosystem runs golangci-lint with the plugin, as
// docs/golangci-lint.md configures it, over testdata/ecosystem, a service
// importing what Go services import most (Prometheus's client among them,
// whose model once crashed every run with a stack overflow): golangci-lint
// exits 1 with the service's one bug, nothing crashes, and the run's time and
// peak memory are logged.
func TestGolangciLintEcosystem(t *testing.T) {
	if os.Getenv("CI") == "" && os.Getenv("CROSSSLOT_ECOSYSTEM") == "" {
		t.Skip("downloads and analyzes some 800 packages: CI runs it, or set CROSSSLOT_ECOSYSTEM=1")
	}
	bin := buildCustomGCL(t)
	dir := cmdtest.CopyDir(t, "../testdata/ecosystem")
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(pageBlock(t, ".golangci.yml")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir, cmd.Env = dir, append(goEnv(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, sign := range []string{"fatal error:", "panic:", "goroutine ", "internal error"} {
		if strings.Contains(stdout.String()+stderr.String(), sign) {
			t.Fatalf("%q in golangci-lint's output:\n%s", sign, stderr.String())
		}
	}
	var report struct{ Issues []gclIssue }
	if err := json.Unmarshal([]byte(stdout.String()), &report); err != nil || code != 1 {
		t.Fatalf("exit %d, JSON %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	found := false
	for _, is := range report.Issues {
		found = found || is.FromLinter == "crossslot" && filepath.Base(is.Pos.Filename) == "main.go" &&
			strings.HasPrefix(is.Text, `MGet keys "user:<id>:profile" and "user:<id>:settings" are on different hash slots`)
	}
	if !found {
		t.Errorf("the service's bug is not among the issues: %+v", report.Issues)
	}
	var peak int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss / 1024
	}
	t.Logf("golangci-lint with the plugin over the ecosystem module, a cold cache: %.1fs wall, %.1fs CPU, %d MiB peak, %d issues",
		wall.Seconds(), (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), peak, len(report.Issues))
}
