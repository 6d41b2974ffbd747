package clients

import (
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/commands"
)

// multiKeyReference is the 85 go-redis v9.23.0 Cmdable methods that can carry
// two or more keys, read from its cmdable and family interfaces (the
// commands' own methods and the JSON, time series, probabilistic modules').
const multiKeyReference = `Del Unlink Exists Touch Rename RenameNX Copy SortStore MGet MSet MSetNX MSetEX
BLPop BRPop BLMPop LMPop RPopLPush BRPopLPush LMove BLMove LMoveM BLMoveM SDiff SInter SUnion
SDiffStore SInterStore SUnionStore SInterCard SDiffCard SUnionCard SMove BZPopMax BZPopMin BZMPop
ZMPop ZInterCard ZDiff ZDiffWithScores ZDiffStore ZRangeStore GeoSearchStore PFCount PFMerge
BitOpAnd BitOpOr BitOpXor BitOpDiff BitOpDiff1 BitOpAndOr BitOpOne BitOpNot Eval EvalRO EvalSha
EvalShaRO FCall FCallRO FCallRo JSONMGet JSONMSet CMSMerge CMSMergeWithWeight TDigestMerge
TSCreateRule TSCreateRuleWithArgs TSDeleteRule TSMAdd TSNRange TSNRangeWithArgs TSNRevRange
TSNRevRangeWithArgs XRead XReadStreams XReadGroup ZInterStore ZUnionStore ZInter ZInterWithScores
ZUnion ZUnionWithScores GeoRadiusStore GeoRadiusByMemberStore LCS JSONMSetArgs`

func TestTableCoversReferenceMethods(t *testing.T) {
	names := strings.Fields(multiKeyReference)
	if len(names) != 85 {
		t.Fatalf("reference list has %d methods, want 85", len(names))
	}
	for _, name := range names {
		if _, ok := MultiKeyMethods()[name]; !ok {
			t.Errorf("multi-key method %s is missing from the table", name)
		}
	}
	// Beyond the 85: Script's methods, WATCH and raw commands.
	for _, name := range []string{"Run", "RunRO", "Watch", "Do"} {
		if _, ok := MultiKeyMethods()[name]; !ok {
			t.Errorf("%s is missing from the table", name)
		}
	}
}

// TestMethodsAgreeWithCommandTable: where a go-redis multi-key method is
// named after a command (MGet is MGET, SUnionStore is SUNIONSTORE), the
// command table from the server's key specs says that command can take
// several keys too.
func TestMethodsAgreeWithCommandTable(t *testing.T) {
	matched := 0
	for name := range MultiKeyMethods() {
		cmd, ok := commands.Lookup(name)
		if !ok {
			continue // no command of that name (Run, BitOpAnd, JSONMGet, ...)
		}
		matched++
		if !cmd.MultiKey() {
			t.Errorf("go-redis %s is multi-key, but the server's %s takes one key", name, cmd.Name)
		}
	}
	if matched < 40 {
		t.Errorf("only %d go-redis methods matched a command by name", matched)
	}
	t.Logf("%d go-redis multi-key methods agree with the server's key specs", matched)
}
