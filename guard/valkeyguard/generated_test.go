package valkeyguard_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedFromRueidisGuard: the files generated from rueidisguard are
// the ones checked in (run go generate after changing rueidisguard).
func TestGeneratedFromRueidisGuard(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("go", "run", "./internal/gen", "-out", dir).CombinedOutput(); err != nil {
		t.Fatalf("go run ./internal/gen: %v\n%s", err, out)
	}
	for _, name := range []string{"valkeyguard.go", "valkeyguard_test.go"} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		got, err := os.ReadFile(name)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is not what go generate writes from ../rueidisguard: run go generate ./... in guard/valkeyguard", name)
		}
	}
}
