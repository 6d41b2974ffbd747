package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// scriptsDir is a module that sends Lua scripts through the real go-redis,
// one from an embedded .lua file.
const scriptsDir = "../../testdata/scripts"

// scriptFindings vets the scripts module and returns, per function, the
// categories reported for it: findings in the script literals are in the
// function; those in bump.lua are badEmbeddedScript's.
func scriptFindings(t *testing.T) (map[string][]string, []string) {
	t.Helper()
	funcAt, names := funcsOf(t, filepath.Join(scriptsDir, "main.go"))
	out := map[string][]string{}
	for _, d := range vetModule(t, scriptsDir, "example.com/scripts") {
		fn := "badEmbeddedScript"
		if !strings.Contains(d.Posn, "bump.lua:") {
			fn = funcAt(lineOf(t, d.Posn))
		}
		out[fn] = append(out[fn], d.Category)
	}
	return out, names
}

// TestScriptsOnRealGoRedis: every bad* script gets exactly one script
// finding, in its Lua; good* ones none.
func TestScriptsOnRealGoRedis(t *testing.T) {
	found, names := scriptFindings(t)
	bad := 0
	for _, fn := range names {
		switch cats := found[fn]; {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if len(cats) != 1 || !strings.Contains("scriptslot undeclaredkey missingkey", cats[0]) {
				t.Errorf("%s: reported %q, want one script finding", fn, cats)
			}
		case len(cats) > 0:
			t.Errorf("%s: reported %q, want nothing", fn, cats)
		}
	}
	if bad < 5 {
		t.Fatalf("only %d bad* functions in the scripts module", bad)
	}
}

// TestScriptsGroundTruth runs the scripts on the live three-master cluster:
// every reported script fails (a key on another node: non local key; a
// missing KEYS: a nil argument), every other one succeeds.
func TestScriptsGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	found, _ := scriptFindings(t)
	cmd := exec.Command("go", "run", ".", "-addr", addr)
	cmd.Dir = scriptsDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the scripts module: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line+"\t", "\t", 3)
		if len(f) != 3 {
			t.Fatalf("unexpected output line %q", line)
		}
		fn, result, detail := f[0], f[1], f[2]
		refused := result == "error" && (strings.Contains(detail, "non local key") || strings.Contains(detail, "arguments must be strings"))
		switch reported := len(found[fn]) > 0; {
		case reported && !refused:
			t.Errorf("%s: reported, but the cluster said %q", fn, line)
		case !reported && result != "ok":
			t.Errorf("%s: not reported, but the cluster said %q", fn, line)
		}
		checked++
	}
	t.Logf("%d scripts on %s agree with the analyzer", checked, addr)
	if checked < 8 {
		t.Fatalf("only %d scripts ran", checked)
	}
}
