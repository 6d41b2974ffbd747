package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A corpus is a module of scenarios (testdata/upstream, testdata/ledger): a
// bad* function a cluster refuses beside the good* function that fixes it,
// run by its main on a cluster, and the default run's findings, each pinned
// to the bad* function whose bug it is (want, by file:line).

// checkCorpusFindings vets the corpus and checks that it reports exactly the
// findings of want: the bugs found, the bad* scenarios, and the findings.
func checkCorpusFindings(t *testing.T, dir string, want map[string]string) (bugs map[string]bool, bad, findings int) {
	t.Helper()
	var found []string
	for _, byAnalyzer := range vetJSON(t, dir, []string{"./..."}) {
		for _, d := range byAnalyzer["crossslot"] {
			file, line, _ := strings.Cut(filepath.Base(d.Posn), ":")
			line, _, _ = strings.Cut(line, ":")
			at := file + ":" + line
			if _, ok := want[at]; !ok {
				t.Errorf("a finding not pinned to a bug (a false alarm on a fix, or a bug found anew): %s %s: %s", at, d.Category, d.Message)
			}
			found = append(found, at)
		}
	}
	bugs = map[string]bool{}
	for at, bug := range want {
		if !slices.Contains(found, at) {
			t.Errorf("%s (%s) is no longer reported", at, bug)
		}
		bugs[bug] = true
	}
	for _, name := range scenarioNamesIn(t, dir) {
		if strings.HasPrefix(name, "bad") {
			bad++
		}
	}
	return bugs, bad, len(found)
}

// checkGroundTruth runs the corpus on the cluster at addr: every bad*
// scenario is refused with an error that says one of refusals, every good*
// one succeeds. It returns how many were refused and how many ran.
func checkGroundTruth(t *testing.T, dir, addr string, refusals ...string) (refused, ran int) {
	t.Helper()
	runs := runScenarios(t, dir, addr)
	names := scenarioNamesIn(t, dir)
	if len(runs) != len(names) {
		t.Fatalf("%d runs for %d scenarios", len(runs), len(names))
	}
	for _, r := range runs {
		switch bad := strings.HasPrefix(r.name, "bad"); {
		case bad && r.result != "error":
			t.Errorf("%s: the cluster took it (%s %s)", r.name, r.result, r.detail)
		case bad && !slices.ContainsFunc(refusals, func(s string) bool { return strings.Contains(r.detail, s) }):
			t.Errorf("%s: refused for another reason: %s", r.name, r.detail)
		case bad:
			refused++
		case r.result != "ok":
			t.Errorf("%s: %s %s, want ok", r.name, r.result, r.detail)
		default:
			ran++
		}
	}
	return refused, ran
}

// scenarioNamesIn are the scenarios of a corpus in dir, as its main.go's
// table lists them: lines that start {"name", (the functions may live in
// other files).
func scenarioNamesIn(t *testing.T, dir string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		var name string
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "{%q,", &name); err == nil {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no scenarios in %s's main.go", dir)
	}
	return out
}
