package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// upstreamDir is a module of real CROSSSLOT bugs that public Go projects
// had and fixed (testdata/upstream/CORPUS.md): each bad* function is the
// code before the fix, each good* function the code after it.
const upstreamDir = "../../testdata/upstream"

// upstreamFound are the corpus's findings by the default run, each with
// the bad* function it is the bug of (a finding is often in a method the
// function calls). Every other bad* function is a bug the analyzer misses
// (see CORPUS.md for why); a finding not listed here is a false alarm on a
// good* function, or a new finding to triage.
var upstreamFound = map[string]string{
	"shape1_fields.go:378":  "badLimitersTokenBucketSetState", // TxPipelined over redisKey(t.prefix, ...)
	"shape1_fields.go:384":  "badLimitersTokenBucketSetState", // the race-check script's keys
	"shape1_fields.go:651":  "badSocketioShardedSubscribe",    // in Construct, where nsp and s.uid meet
	"shape2_ids.go:60":      "badGiteaRegenerate",             // in Regenerate, where oldsid and sid meet
	"shape2_ids.go:151":     "badChproxyPut",
	"shape2_ids.go:376":     "badAsynqDequeueSingle",
	"shape3_batches.go:62":  "badLimitersTokenBucketState",
	"shape3_batches.go:168": "badMoiraTriggersByTags",
	"shape5_lua.go:137":     "badOneHubTokenRate",
	"shape5_lua.go:165":     "badRedislockLock",      // the script's undeclared lock_key .. ':count:'
	"shape5_lua.go:301":     "badAsynqDequeueScript", // the queues popped from ARGV
}

// TestUpstreamCorpus runs the default analyzer over the corpus: it finds
// the bugs listed in upstreamFound, and nothing else.
func TestUpstreamCorpus(t *testing.T) {
	var found []string
	for _, byAnalyzer := range vetJSON(t, upstreamDir, []string{"./..."}) {
		for _, d := range byAnalyzer["crossslot"] {
			file, line, _ := strings.Cut(filepath.Base(d.Posn), ":")
			line, _, _ = strings.Cut(line, ":")
			at := file + ":" + line
			if _, ok := upstreamFound[at]; !ok {
				t.Errorf("a finding not in upstreamFound (a false alarm, or a bug found anew): %s %s: %s", at, d.Category, d.Message)
			}
			found = append(found, at)
		}
	}
	bugs := map[string]bool{}
	for at, bug := range upstreamFound {
		if !slices.Contains(found, at) {
			t.Errorf("%s (%s) is no longer reported", at, bug)
		}
		bugs[bug] = true
	}
	bad := 0
	for _, name := range scenarioNames(t) {
		if strings.HasPrefix(name, "bad") {
			bad++
		}
	}
	t.Logf("upstream corpus: %d of %d bugs found, %d findings", len(bugs), bad, len(found))
}

// TestUpstreamGroundTruth runs the corpus on the three-master cluster:
// every bad* function is refused (CROSSSLOT, a non local key, or the
// rueidis builder's panic), every good* function succeeds.
func TestUpstreamGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	runs := runScenarios(t, upstreamDir, addr)
	names := scenarioNames(t)
	if len(runs) != len(names) {
		t.Fatalf("%d runs for %d scenarios", len(runs), len(names))
	}
	refused := 0
	for _, r := range runs {
		switch bad := strings.HasPrefix(r.name, "bad"); {
		case bad && r.result != "error":
			t.Errorf("%s: the cluster took it (%s %s)", r.name, r.result, r.detail)
		case bad && !strings.Contains(r.detail, "CROSSSLOT") && !strings.Contains(r.detail, "non local key") && !strings.Contains(r.detail, "different key slots"):
			t.Errorf("%s: refused for another reason: %s", r.name, r.detail)
		case bad:
			refused++
		case r.result != "ok":
			t.Errorf("%s: %s %s, want ok", r.name, r.result, r.detail)
		}
	}
	t.Logf("upstream corpus on %s: %d bad functions refused, %d good ones ran", addr, refused, len(runs)-refused)
}

// scenarioNames are the upstream corpus's scenarios.
func scenarioNames(t *testing.T) []string { return scenarioNamesIn(t, upstreamDir) }

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
