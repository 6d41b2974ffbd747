package analyzer

import (
	"strings"
	"testing"
)

// multiKeyReference is the 85 go-redis v9.23.0 Cmdable methods that can carry
// two or more keys (shared/reference/clients.md §1.1 and §1.2).
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
		if _, ok := multiKeyMethods[name]; !ok {
			t.Errorf("multi-key method %s is missing from the table", name)
		}
	}
	// Beyond the 85: Script's methods, WATCH and raw commands.
	for _, name := range []string{"Run", "RunRO", "Watch", "Do"} {
		if _, ok := multiKeyMethods[name]; !ok {
			t.Errorf("%s is missing from the table", name)
		}
	}
}
