package analyzer

import (
	"strings"

	"golang.org/x/tools/go/analysis"
)

// go-redis's Ring shards keys over plain servers by their hash tags (the
// tag's text, or the whole key without one) and knows no slots: a
// multi-key command goes to its first key's shard, which reads the other
// keys there as missing or writes them there, where their own shard never
// sees them; a transaction runs one MULTI/EXEC per shard; Watch refuses
// keys of different shards. Nothing fails with CROSSSLOT. Keys that hash by
// different values may sit on different shards, which the code cannot know
// (the shards' names decide), so the crossslot units report them as the
// ringshard check, in its words, where the client is surely a Ring.

// ringFate says what a Ring does with a command whose keys hash by
// different values.
func ringFate(method string) string {
	return "; on go-redis's Ring they may sit on different shards, and " + method +
		" runs on the first key's shard, which reads the other keys there as missing or writes them there, with no error"
}

// ringRemedy is the fix on a Ring: one hash tag for one entity's keys, as
// on a cluster; keys of two entities are never told to share one (it would
// put every such key on one shard).
func (v advice) ringRemedy() string {
	switch {
	case v.pairing.apart() && splittable(commandBatch, v.method):
		return "send one command per key, since one hash tag for every such key would put them all on one shard"
	case v.pairing.apart():
		return strings.ReplaceAll(v.apartRemedy(), "slot", "shard")
	}
	if r, ok := v.sharedValue(); ok {
		return r + ", or send one command per key"
	}
	return "give keys that belong together one hash tag (user:{42}:a, user:{42}:b), or send one command per key"
}

// ringTransactionFate is what a Ring does with a transaction across shards.
const ringTransactionFate = "on go-redis's Ring they may sit on different shards, and the Ring runs one MULTI/EXEC per shard, so the transaction is not atomic"

// ringWatchFate is what a Ring does with Watch across shards.
const ringWatchFate = "on go-redis's Ring they may sit on different shards: Watch refuses watched keys of different shards (redis: Watch requires all keys to be in the same shard), and the callback runs on the watched keys' shard, where another shard's key is read or written with no error"

// onRing rewords a crossslot diagnostic for a Ring: the keys hash by
// different values, which is what the Ring shards by.
func onRing(d analysis.Diagnostic) analysis.Diagnostic {
	d.Category = CategoryRingShard
	d.Message = strings.Replace(d.Message, " are on different hash slots", " hash by different values", 1)
	d.Message = strings.Replace(d.Message, "; run one transaction per slot, or give", "; give", 1)
	return d
}
