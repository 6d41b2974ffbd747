package main

import (
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
	"shape1_fields.go:378": "badLimitersTokenBucketSetState", // TxPipelined over redisKey(t.prefix, ...)
	"shape1_fields.go:384": "badLimitersTokenBucketSetState", // the race-check script's keys
	"shape1_fields.go:651": "badSocketioShardedSubscribe",    // in Construct, where nsp and s.uid meet
	// The filter's fields as the buggy constructor, NewBloomFilter, sets
	// them; the corpus keeps the fixed constructor on the same struct.
	"shape1_fields.go:580": "badRueidisprobBloomAdd",
	"shape2_ids.go:60":     "badGiteaRegenerate", // in Regenerate, where oldsid and sid meet
	"shape2_ids.go:151":    "badChproxyPut",
	// In Delete, through ExecCtx's variadic wrappers to an interface with
	// two implementations, each judged: the buggy cacheNode's one DEL of
	// both keys. The good twin reaches the same Delete with cacheNodeFixed;
	// the real module had one of the two at each version.
	"shape2_ids.go:328":     "badGoZeroDelCache",
	"shape2_ids.go:376":     "badAsynqDequeueSingle",
	"shape3_batches.go:62":  "badLimitersTokenBucketState",
	"shape3_batches.go:168": "badMoiraTriggersByTags",
	"shape3_batches.go:253": "badLokiMGet", // the prefixed copy, one of two slices
	"shape5_lua.go:137":     "badOneHubTokenRate",
	"shape5_lua.go:165":     "badRedislockLock",      // the script's undeclared lock_key .. ':count:'
	"shape5_lua.go:301":     "badAsynqDequeueScript", // the queues popped from ARGV
}

// TestUpstreamCorpus runs the default analyzer over the corpus: it finds
// the bugs listed in upstreamFound, and nothing else.
func TestUpstreamCorpus(t *testing.T) {
	bugs, bad, findings := checkCorpusFindings(t, upstreamDir, upstreamFound)
	t.Logf("upstream corpus: %d of %d bugs found, %d findings", len(bugs), bad, findings)
}

// TestUpstreamGroundTruth runs the corpus on the three-master cluster:
// every bad* function is refused (CROSSSLOT, a non local key, or the
// rueidis builder's panic), every good* function succeeds.
func TestUpstreamGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	refused, ran := checkGroundTruth(t, upstreamDir, addr, "CROSSSLOT", "non local key", "different key slots")
	t.Logf("upstream corpus on %s: %d bad functions refused, %d good ones ran", addr, refused, ran)
}
