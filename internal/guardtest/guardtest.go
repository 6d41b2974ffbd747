// Package guardtest holds what the guards' agreement tests send, so that
// every client's guard is held to the same commands: a guarded client of a
// plain server must refuse exactly what a cluster-enabled server refuses.
package guardtest

import "strings"

// Corpus holds command lines with two keys, A and B: every multi-key command
// of the command table, a single-key one, and the empty key.
var Corpus = []string{
	"MGET A B", "MSET A 1 B 2", "MSETNX A 1 B 2", "DEL A B", "EXISTS A B", "UNLINK A B", "TOUCH A B",
	"RENAME A B", "RENAMENX A B", "COPY A B", "SMOVE A B m", "RPOPLPUSH A B", "LMOVE A B LEFT RIGHT",
	"BLMOVE A B LEFT RIGHT 0.01", "BRPOPLPUSH A B 0.01", "BLPOP A B 0.01", "BRPOP A B 0.01", "BZPOPMIN A B 0.01",
	"BZPOPMAX A B 0.01", "BLMPOP 0.01 2 A B LEFT", "LMPOP 2 A B LEFT", "ZMPOP 2 A B MIN", "BZMPOP 0.01 2 A B MAX",
	"SINTERCARD 2 A B", "ZINTERCARD 2 A B", "SUNION A B", "SINTER A B", "SDIFF A B", "SUNIONSTORE A B",
	"SINTERSTORE A B", "SDIFFSTORE A B", "ZUNIONSTORE A 1 B", "ZINTERSTORE A 1 B WEIGHTS 2", "ZDIFFSTORE A 1 B",
	"ZUNION 2 A B", "ZINTER 2 A B", "ZDIFF 2 A B", "ZRANGESTORE A B 0 1", "PFCOUNT A B", "PFMERGE A B",
	"BITOP AND A B", "BITOP NOT A B", "EVAL return 2 A B", "EVAL_RO return 2 A B", "FCALL_RO nosuchfunction 2 A B",
	"XREAD STREAMS A B 0 0", "XREAD COUNT 1 STREAMS A B 0 0", "GEOSEARCHSTORE A B FROMLONLAT 0 0 BYRADIUS 1 km",
	"GEORADIUS B 0 0 1 km STORE A", "SORT A STORE B", "LCS A B", "WATCH A B", "GET A", "SET A 1",
	"MGET EMPTY A",
}

// KeyPairs are the keys put in for A and B: on two slots, on one (a tag),
// and the empty key (slot 0) with one on slot 0.
var KeyPairs = [][2]string{{"a", "b"}, {"{t}a", "{t}b"}, {"", "{}"}, {"", "x"}}

// Line is a corpus line with a and b put in.
func Line(tmpl string, a, b string) []string {
	var args []string
	for _, f := range strings.Fields(tmpl) {
		switch f {
		case "A":
			args = append(args, a)
		case "B":
			args = append(args, b)
		case "EMPTY":
			args = append(args, "")
		default:
			args = append(args, f)
		}
	}
	return args
}

// CrossSlot says whether an error is a cluster's or a guard's CROSSSLOT.
func CrossSlot(err error) bool {
	return err != nil && strings.Contains(err.Error(), "CROSSSLOT")
}

// Refusals holds command lines a cluster refuses for what they do, not for
// their keys' slots, with near-misses it accepts; A and B are put in as
// keys on one slot.
var Refusals = []string{
	"SELECT 1", "SELECT 0", "MOVE A 1", "SWAPDB 0 1", "COPY A B DB 1", "COPY A B DB 0", "COPY A B",
	"SORT A BY w_*", "SORT A BY nosort", "SORT A GET #", "SORT A LIMIT 0 1 BY w_*", "SORT_RO A BY w_*", "SORT A ALPHA",
}

// RefusalKeys are the keys put in for A and B in Refusals: one slot.
var RefusalKeys = [2]string{"{r}a", "{r}b"}

// SameRefusal says whether a guard's error and a cluster's are the same
// refusal: both none, or the guard's starting with the cluster's text.
func SameRefusal(guard, cluster error) bool {
	switch {
	case guard == nil || cluster == nil:
		return guard == nil && cluster == nil
	}
	// rueidis and valkey-go drop the "ERR " that starts the server's text.
	return strings.HasPrefix(strings.TrimPrefix(guard.Error(), "ERR "), strings.TrimPrefix(cluster.Error(), "ERR "))
}
