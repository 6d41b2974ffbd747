package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersion builds crossslot from this checkout with VCS stamping on (the
// go command's default; some environments turn it off through GOFLAGS): the
// standalone command's -version, go vet's -V=full and SARIF name the
// checkout's revision, and -V=full ends with the executable's hash, which go
// vet takes as the tool's identity.
func TestVersion(t *testing.T) {
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "crossslot")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	want := regexp.MustCompile(`^v0\.0\.0-\d{14}-` + string(rev[:12]) + `(\+dirty)?$`)
	out, err := exec.Command(bin, "-V=full").Output()
	f := strings.Fields(string(out))
	if err != nil || len(f) != 4 || f[0] != "crossslot" || f[1] != "version" || !want.MatchString(f[2]) || !regexp.MustCompile(`^buildID=[0-9a-f]{64}$`).MatchString(f[3]) {
		t.Errorf("-V=full: %q, %v; want crossslot version v0.0.0-DATE-%s buildID=HASH", out, err, rev[:12])
	}
	out, _ = exec.Command(bin, "-version").Output()
	if !strings.Contains(string(out), f[2]) {
		t.Errorf("-version: %q, want %s", out, f[2])
	}
	cmd := exec.Command(bin, "-f", "sarif", "./...")
	cmd.Dir, cmd.Env = exampleDir, append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, _ = cmd.Output()
	var report struct {
		Runs []struct {
			Tool struct{ Driver struct{ Version string } }
		}
	}
	if err := json.Unmarshal(out, &report); err != nil || len(report.Runs) != 1 || report.Runs[0].Tool.Driver.Version != f[2] {
		t.Errorf("SARIF driver version: %+v, %v; want %s", report.Runs, err, f[2])
	}
}

// TestVersionUnstamped checks -version of a build without a module version or
// VCS revision (-buildvcs=false, as some machines set in GOFLAGS): it says why
// and how to get one, instead of lintcmd's bare "(no version)".
func TestVersionUnstamped(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "crossslot")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil || !strings.HasPrefix(string(out), "crossslot devel (no version stamped") || !strings.Contains(string(out), "go install -buildvcs=true ./cmd/crossslot") {
		t.Errorf("-version: %q, %v", out, err)
	}
}
