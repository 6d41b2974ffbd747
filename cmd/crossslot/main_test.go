package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
	"github.com/crossslot/crossslot/internal/sharedcache"
)

// crossslotBin is the command under test, built once by TestMain.
var crossslotBin string

func TestMain(m *testing.M) {
	if shared := os.Getenv(cacheProgShared); shared != "" {
		// TestSharedBuildCache runs this binary as the go command's
		// GOCACHEPROG.
		if err := sharedcache.Serve(os.Stdin, os.Stdout, shared, os.Getenv(cacheProgLocal), nil); err != nil {
			fmt.Fprintln(os.Stderr, "cacheprog:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "crossslot-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	crossslotBin = filepath.Join(dir, "crossslot")
	fetched := prefetchFixtureModules()
	// CROSSSLOT_TEST_BUILDFLAGS=-race builds the command with the race
	// detector (with GORACE=halt_on_error=1 a race ends the process, and
	// the test that drives it fails).
	build := append(append([]string{"build"}, strings.Fields(os.Getenv("CROSSSLOT_TEST_BUILDFLAGS"))...), "-o", crossslotBin, ".")
	if out, err := exec.Command("go", build...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	fetched.Wait()
	code := redistest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixtureEnv is the environment for commands run in the fixture modules,
// which require the real go-redis through the module proxy.
func fixtureEnv() []string { return cmdtest.ModuleEnv() }

// runIn runs a command in dir; see cmdtest.Run.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return cmdtest.Run(t, dir, env, name, args...)
}

// TestNoExecutableTracked: git tracks no compiled program (an ELF, Mach-O or
// PE file). A `go build` in a scenario module leaves one behind; the tests
// build with `go run`, and .gitignore names the usual ones.
func TestNoExecutableTracked(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	magic := [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, {'M', 'Z'}}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		f, err := os.Open(filepath.Join("../..", name))
		if err != nil {
			continue // deleted in the working tree
		}
		head := make([]byte, 4)
		n, _ := io.ReadFull(f, head)
		f.Close()
		for _, m := range magic {
			if n >= len(m) && bytes.Equal(head[:len(m)], m) {
				t.Errorf("%s is a compiled program; remove it from git (git rm --cached) and list it in .gitignore", name)
			}
		}
	}
}

// TestCommandDocNamesEveryCheck: the command's documentation lists every
// check the analyzer has.
func TestCommandDocNamesEveryCheck(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "package main")
	for _, c := range analyzer.Checks() {
		if !strings.Contains(doc, c.Name) {
			t.Errorf("main.go's package comment does not name check %s", c.Name)
		}
	}
}

// prefetchFixtureModules downloads, all at once and while the command
// builds, the modules the fixture modules need (the real clients): on a
// cold module cache the tests would otherwise fetch them one after another.
// A failure is left to the test that needs the module.
func prefetchFixtureModules() *sync.WaitGroup {
	var wg sync.WaitGroup
	mods, _ := filepath.Glob("../../testdata/*/go.mod")
	for _, mod := range mods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("go", "mod", "download")
			cmd.Dir, cmd.Env = filepath.Dir(mod), fixtureEnv()
			cmd.Run()
		}()
	}
	return &wg
}

// TestVetUnit: go vet's unit runs the analysis with a collector that lets
// the heap grow (GOGC=400) and restores the setting after it; a GOGC the
// user set is kept.
func TestVetUnit(t *testing.T) {
	var during int
	probe := func() *analysis.Analyzer {
		return &analysis.Analyzer{Name: "probe", Doc: "probe", Run: func(*analysis.Pass) (any, error) {
			during = debug.SetGCPercent(-1)
			debug.SetGCPercent(during)
			return nil, nil
		}}
	}
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	if _, err := vetUnit(probe()).Run(nil); err != nil {
		t.Fatal(err)
	}
	if during != 400 {
		t.Errorf("GC percent during the analysis = %d, want 400", during)
	}
	if after := debug.SetGCPercent(100); after != 100 {
		t.Errorf("GC percent after the analysis = %d, want 100 restored", after)
	}
	t.Setenv("GOGC", "50")
	during = 0
	vetUnit(probe()).Run(nil)
	if during != 100 {
		t.Errorf("with GOGC set, GC percent during the analysis = %d, want the process's own (100)", during)
	}
}

// TestFactsOnlyUnit: a unit go vet runs for facts alone is told apart from
// one it vets; a config that cannot be read is left to unitchecker.
func TestFactsOnlyUnit(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]bool{`{"VetxOnly": true}`: true, `{"VetxOnly": false}`: false, `{}`: false, `not json`: false} {
		cfg := filepath.Join(dir, "unit.cfg")
		if err := os.WriteFile(cfg, []byte(name), 0o666); err != nil {
			t.Fatal(err)
		}
		if got := factsOnly([]string{"-flag", cfg}); got != want {
			t.Errorf("factsOnly of %s = %v, want %v", name, got, want)
		}
	}
	if factsOnly([]string{filepath.Join(dir, "missing.cfg")}) || factsOnly([]string{"-V=full"}) {
		t.Error("factsOnly of a missing config or no config = true, want false")
	}
}
