// Package guardtest holds what the guards' agreement tests send, so that
// every client's guard is held to the same commands: a guarded client of a
// plain server must refuse exactly what a cluster-enabled server refuses.
package guardtest

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/internal/redistest"
	"github.com/crossslot/crossslot/slotcalc"
)

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
// the empty key (slot 0) with one on slot 0, and doubled tags: only the
// first '{' to the first '}' counts, so the first pair shares a slot and
// the second does not.
var KeyPairs = [][2]string{{"a", "b"}, {"{t}a", "{t}b"}, {"", "{}"}, {"", "x"},
	{"lock:{cart:{alice}:a}", "lock:{cart:{alice}:b}"}, {"{a}:{t}", "{b}:{t}"}}

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
	// Accepted from Redis 7.4 and Valkey 8.0 (the pattern's tag is the
	// key's), refused before; and a tag of another slot, refused by all.
	"SORT A BY {r}w_*", "SORT A GET {r}o_*", "SORT_RO A BY {r}:w_* GET #", "SORT A BY {x}w_*", "SORT A GET o_*",
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

// A Script is an EVAL the guards must judge as the three-master cluster
// does: Lua, its KEYS and its ARGV.
type Script struct {
	Name       string
	Lua        string
	Keys, Args []string
}

// Scripts touch a key besides their declared one: derived from KEYS[1], an
// ARGV, written in the script; on another node (the cluster refuses them)
// or on the declared key's slot (it runs them). The slots are those of
// `redis-cli --cluster create` with three masters (0-5460, 5461-10922,
// 10923-16383), which the tests check before trusting them.
var Scripts = []Script{
	{"derived key on another node", "redis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1] .. ':held')", []string{"lock:2"}, nil},
	{"ARGV key on another node", "redis.call('INCR', KEYS[1]); return redis.call('INCR', ARGV[1])", []string{"lock:1"}, []string{"audit:total"}},
	{"literal key on another node", "redis.call('INCR', KEYS[1]); return redis.call('INCR', 'audit:total')", []string{"lock:1"}, nil},
	{"shebang, derived key on another slot of the same node", "#!lua\nredis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1] .. ':held')", []string{"lock:1"}, nil},
	{"derived key with the declared key's tag", "redis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1] .. ':held')", []string{"{res:1}"}, nil},
	{"ARGV key with the declared key's tag", "redis.call('INCR', KEYS[1]); return redis.call('INCR', ARGV[1])", []string{"{res:1}:a"}, []string{"{res:1}:b"}},
	{"allow-cross-slot-keys, another slot of the same node", "#!lua flags=allow-cross-slot-keys\nredis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1] .. ':held')", []string{"lock:1"}, nil},
}

// EvalArgs is a script's EVAL command line.
func (s Script) EvalArgs() []string {
	args := append([]string{"EVAL", s.Lua, strconv.Itoa(len(s.Keys))}, s.Keys...)
	return append(args, s.Args...)
}

// scriptRefusals are the cluster's errors for a script's key elsewhere.
var scriptRefusals = []string{"non local key", "do not hash to the same slot"}

// SameScriptVerdict says whether a guard's error and a cluster's on a
// script are the same: both none, or both the same refusal.
func SameScriptVerdict(guard, cluster error) bool {
	for _, r := range scriptRefusals {
		g := guard != nil && strings.Contains(guard.Error(), r)
		c := cluster != nil && strings.Contains(cluster.Error(), r)
		if g != c {
			return false
		}
	}
	return (guard == nil) == (cluster == nil)
}

// EvalOnCluster runs a script on the node of the three-master cluster at
// addr that owns its first key's slot, as a cluster client would.
func EvalOnCluster(addr string, s Script) error {
	node, err := NodeOf(addr, slotcalc.Slot(s.Keys[0]))
	if err != nil {
		return err
	}
	c, err := redistest.Dial(node)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Do(s.EvalArgs()...)
	if _, ok := err.(redistest.ServerError); ok || err == nil {
		return err
	}
	return fmt.Errorf("EVAL on %s: %v", node, err)
}

// NodeOf is the address of the node of the cluster at addr that owns slot.
func NodeOf(addr string, slot int) (string, error) {
	c, err := redistest.Dial(addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	reply, err := c.Do("CLUSTER", "SLOTS")
	if err != nil {
		return "", err
	}
	ranges, _ := reply.([]any)
	for _, r := range ranges {
		r, _ := r.([]any)
		if len(r) < 3 {
			continue
		}
		lo, _ := r[0].(int64)
		hi, _ := r[1].(int64)
		master, _ := r[2].([]any)
		if int64(slot) >= lo && int64(slot) <= hi && len(master) >= 2 {
			host, _ := master[0].(string)
			port, _ := master[1].(int64)
			return net.JoinHostPort(host, strconv.FormatInt(port, 10)), nil
		}
	}
	return "", fmt.Errorf("no node of %s owns slot %d", addr, slot)
}

// CheckScriptLayout fails unless the cluster at addr places the scripts'
// keys as Scripts says: the first three's keys on two nodes, the fourth's
// and the last's on one node.
func CheckScriptLayout(addr string) error {
	for i, s := range Scripts[:4] {
		declared := s.Keys[0]
		other := declared + ":held"
		switch i {
		case 1:
			other = s.Args[0]
		case 2:
			other = "audit:total"
		}
		a, err := NodeOf(addr, slotcalc.Slot(declared))
		if err != nil {
			return err
		}
		b, err := NodeOf(addr, slotcalc.Slot(other))
		if err != nil {
			return err
		}
		if (a != b) != (i < 3) {
			return fmt.Errorf("the cluster at %s places %q on %s and %q on %s, not as the script %q needs", addr, declared, a, other, b, s.Name)
		}
	}
	return nil
}
