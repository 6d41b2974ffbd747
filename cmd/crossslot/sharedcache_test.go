package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// The environment that makes the test binary a GOCACHEPROG program (see
// TestMain): the shared directory, and this machine's local one.
const (
	cacheProgShared = "CROSSSLOT_TEST_CACHEPROG_SHARED"
	cacheProgLocal  = "CROSSSLOT_TEST_CACHEPROG_LOCAL"
)

// TestSharedBuildCache: crossslot's results travel through Go's own build
// cache protocol (GOCACHEPROG), as a monorepo's CI shares them between
// runners. One "machine" (a GOCACHE of its own) vets the example through a
// cache program that keeps the cache in a shared directory; a second, with
// an empty GOCACHE and the same program, runs the analyzer on no package
// (go vet replays the results and facts it finds) and prints the same
// findings.
func TestSharedBuildCache(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := cmdtest.CopyDir(t, exampleDir) // one checkout, at one path, as CI runners have
	tmp := t.TempDir()
	shared := filepath.Join(tmp, "shared")
	runs := filepath.Join(tmp, "analyses.log")
	// The vet tool as go vet sees it: crossslot, counting the packages it
	// is asked to analyze (one .cfg each).
	wrapper := filepath.Join(tmp, "crossslot-counting")
	script := "#!/bin/sh\ncase \"$*\" in *.cfg) echo run >> '" + runs + "';; esac\nexec '" + crossslotBin + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	machine := func(name string) (findings []string, analyses int, took time.Duration) {
		os.Remove(runs)
		env := append(fixtureEnv(), "GOCACHE="+filepath.Join(tmp, name, "gocache"), "GOCACHEPROG="+self,
			cacheProgShared+"="+shared, cacheProgLocal+"="+filepath.Join(tmp, name, "local"), "GOFLAGS=-mod=mod")
		start := time.Now()
		stdout, stderr, code := runIn(t, dir, env, "go", "vet", "-json", "-vettool="+wrapper, "./...")
		took = time.Since(start)
		if code != 0 {
			t.Fatalf("%s: go vet -json: exit %d\n%s", name, code, stderr)
		}
		for _, line := range strings.Split(stdout+stderr, "\n") {
			if strings.Contains(line, `"posn"`) || strings.Contains(line, `"message"`) {
				findings = append(findings, strings.TrimSpace(line))
			}
		}
		sort.Strings(findings)
		if data, err := os.ReadFile(runs); err == nil {
			analyses = strings.Count(string(data), "run\n")
		}
		return findings, analyses, took
	}
	first, firstRuns, firstTook := machine("first")
	second, secondRuns, secondTook := machine("second")
	t.Logf("go vet: first machine %s (%d packages analyzed), second machine %s (%d analyzed), %d finding lines",
		firstTook.Round(time.Millisecond), firstRuns, secondTook.Round(time.Millisecond), secondRuns, len(first))
	if firstRuns == 0 || len(first) == 0 {
		t.Fatalf("the first machine analyzed %d packages and found %d lines: the test reads nothing", firstRuns, len(first))
	}
	if secondRuns != 0 {
		t.Errorf("the second machine analyzed %d packages again; want none, every input unchanged", secondRuns)
	}
	if strings.Join(first, "\n") != strings.Join(second, "\n") {
		t.Errorf("the second machine printed other findings:\nfirst:\n%s\nsecond:\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
}
