package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

const (
	unfixedCall     = `rdb.MGet(ctx, "user:1:profile", "user:1:settings")`
	fixedCall       = `rdb.MGet(ctx, "{user:1}:profile", "{user:1}:settings")`
	unfixedTemplate = `rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id))`
	fixedTemplate   = `rdb.MGet(ctx, fmt.Sprintf("order:{%d}:items", id), fmt.Sprintf("order:{%d}:total", id))`
)

// TestFixTools applies the suggested fix through both Go 1.26 front ends:
// go vet -fix -diff and go fix -fixtool -diff print it, go fix -fixtool
// writes it, after which go vet no longer reports the call.
func TestFixTools(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	dir := cmdtest.CopyDir(t, exampleDir)
	mainGo := filepath.Join(dir, "main.go")
	wantDiff := "-\treturn " + unfixedCall + ".Err()\n+\treturn " + fixedCall + ".Err()\n"
	for _, args := range [][]string{
		{"vet", "-vettool=" + crossslotBin, "-fix", "-diff", "./..."},
		{"fix", "-fixtool=" + crossslotBin, "-diff", "./..."},
	} {
		stdout, stderr, _ := runIn(t, dir, fixtureEnv(), "go", args...)
		if !strings.Contains(stdout+stderr, wantDiff) {
			t.Errorf("go %s: no diff with\n%s\noutput:\n%s%s", strings.Join(args, " "), wantDiff, stdout, stderr)
		}
	}
	if b, _ := os.ReadFile(mainGo); !strings.Contains(string(b), unfixedCall) {
		t.Fatal("-diff changed the file")
	}

	if _, stderr, code := runIn(t, dir, fixtureEnv(), "go", "fix", "-fixtool="+crossslotBin, "./..."); code != 0 {
		t.Fatalf("go fix: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(mainGo)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), fixedCall) || strings.Contains(string(b), unfixedCall) {
		t.Fatalf("go fix did not rewrite the call:\n%s", b)
	}
	if !strings.Contains(string(b), fixedTemplate) || strings.Contains(string(b), unfixedTemplate) {
		t.Fatalf("go fix did not rewrite the template family:\n%s", b)
	}
	_, stderr, _ := runIn(t, dir, fixtureEnv(), "go", "vet", "-vettool="+crossslotBin, "./...")
	if strings.Contains(stderr, "user:1:profile") || strings.Contains(stderr, "order:id:items") || !strings.Contains(stderr, `"user:1:a"`) {
		t.Errorf("go vet after the fix: the fixed call is still reported, or nothing is:\n%s", stderr)
	}
}

// TestFixedCallOnLiveCluster runs the fixed example on the live cluster: the
// calls the fixes rewrote (literal keys, a template family) must now succeed.
func TestFixedCallOnLiveCluster(t *testing.T) {
	addr := redistest.Addr(t)
	dir := cmdtest.CopyDir(t, exampleDir)
	if _, stderr, code := runIn(t, dir, fixtureEnv(), "go", "fix", "-fixtool="+crossslotBin, "./..."); code != 0 {
		t.Fatalf("go fix: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runIn(t, dir, fixtureEnv(), "go", "run", ".", "-addr", addr)
	if code != 0 {
		t.Fatalf("running the fixed example: exit %d\n%s", code, stderr)
	}
	for _, fn := range []string{"badProfileAndSettings", "badTemplateFamily"} {
		ran := false
		for _, line := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(line, fn+"\t") {
				ran = true
				if !strings.HasPrefix(line, fn+"\tok") {
					t.Errorf("after the fix the server says %q, want ok", line)
				}
			}
		}
		if !ran {
			t.Errorf("%s did not run:\n%s", fn, stdout)
		}
	}
}
