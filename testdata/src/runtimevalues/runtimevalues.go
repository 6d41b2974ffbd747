// Package runtimevalues pins keys made of run-time values: string ids after
// literal text (taken to hold no brace, and the message says so), a fixed
// key beside a key that holds a value, and fields read twice; with their
// near-misses.
package runtimevalues

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"runtimevalues/keys"
)

type config struct{ Prefix string }

func ids(ctx context.Context, rdb *redis.ClusterClient, acct, board, from, to, name string, n int, cfg config) {
	rdb.MGet(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev") // want `MGet keys "bal:<acct>:cur" and "bal:<acct>:prev" are on different hash slots for all but about 1 in 16384 values of acct \(assuming acct holds no brace\)`
	rdb.MGet(ctx, "bal:{"+acct+"}:cur", "bal:{"+acct+"}:prev")
	rdb.SInterCard(ctx, 0, keys.DayKey(board, 6), keys.DayKey(board, 7)) // want `SInterCard keys "lb:<board>:6" and "lb:<board>:7" are on different hash slots for every value of board \(assuming board holds no brace\)`
	rdb.MGet(ctx, cfg.Prefix+"jobs", cfg.Prefix+"done")                  // want `MGet keys "<cfg.Prefix>jobs" and "<cfg.Prefix>done" are on different hash slots for every value of cfg.Prefix, unless cfg.Prefix holds a hash tag`
	rdb.MGet(ctx, "a:"+from, "a:"+to)                                    // want `MGet keys "a:<from>" and "a:<to>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to \(assuming from and to hold no brace\)`
	rdb.MGet(ctx, "a:{"+from+"}:x", "a:{"+from+"}:y")                    // one parameter, one tag
	rdb.MGet(ctx, from, to)                                              // whole keys: the callers'
	rdb.MGet(ctx, from+":x", from+":y")                                  // a name at the start: the callers' (a caller may tag it)
}

func knownBesideUnknown(ctx context.Context, rdb *redis.ClusterClient, name string, n int) {
	rdb.Rename(ctx, "report:latest", "report:"+strconv.Itoa(n)) // want `Rename keys "report:latest" and "report:<strconv.Itoa\(n\)>" are on different hash slots for all but about 1 in 16384 values of strconv.Itoa\(n\)`
	rdb.SMove(ctx, "pool:"+name, "pool:idle", "m")              // want `SMove keys "pool:<name>" and "pool:idle" are on different hash slots for all but about 1 in 16384 values of name \(assuming name holds no brace\)`
	rdb.Rename(ctx, "{report}:latest", "{report}:"+strconv.Itoa(n))
	rdb.Rename(ctx, "report:latest", name+":x") // a value at the start may hold a tag
}

func callers(ctx context.Context, rdb *redis.ClusterClient) {
	keys.RenameLatest(ctx, rdb, "7")
	keys.RenameLatest(ctx, rdb, "8")
}

func slotKey(t int64) string { return "slot:" + strconv.FormatInt(t, 10) }

// Values that provably differ: t and t-1 are never equal.
func valuesThatDiffer(ctx context.Context, rdb *redis.ClusterClient, t, from, to int64) {
	rdb.MGet(ctx, slotKey(t), slotKey(t-1))   // want `MGet keys "slot:<t>" and "slot:<t-1>" are on different hash slots for all but about 1 in 16384 values of t and t-1`
	rdb.MGet(ctx, slotKey(from), slotKey(to)) // want `MGet keys "slot:<from>" and "slot:<to>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
	rdb.MGet(ctx, slotKey(t), slotKey(t))
}

func hourKey(day string, h int) string { return "hour:" + day + ":" + strconv.Itoa(h) }

// Counted loops with constant bounds are unrolled.
func countedLoops(ctx context.Context, rdb *redis.ClusterClient, day string) {
	var ks []string
	for h := 0; h < 3; h++ {
		ks = append(ks, hourKey(day, h))
	}
	rdb.Del(ctx, ks...) // want `Del keys "hour:<day>:0" and "hour:<day>:1" are on different hash slots for every value of day \(assuming day holds no brace\)`

	var tagged []string
	for h := 0; h <= 2; h++ {
		tagged = append(tagged, "hour:{"+day+"}:"+strconv.Itoa(h))
	}
	rdb.Del(ctx, tagged...)

	var once []string
	for h := 0; h < 1; h++ {
		once = append(once, hourKey(day, h))
	}
	rdb.Del(ctx, once...) // one iteration: one key

	key := "day:"
	for i := 0; i < 2; i++ {
		key += strconv.Itoa(i)
	}
	rdb.Rename(ctx, key, "day:01x") // want `Rename keys "day:01" \(slot \d+\) and "day:01x" \(slot \d+\)`
}

// Loops over an input: one key per element.
func families(ctx context.Context, rdb *redis.ClusterClient, tags []string, user string, ids []int) {
	var ks []string
	for _, t := range tags {
		ks = append(ks, "tag:"+t)
	}
	rdb.SUnion(ctx, ks...) // want `SUnion keys "tag:<tags\[i\]>" for two different elements of tags are on different hash slots for all but about 1 in 16384 pairs of them \(assuming tags\[i\] holds no brace\)`

	var fields []string
	for _, f := range tags {
		fields = append(fields, "user:{"+user+"}:"+f)
	}
	rdb.MGet(ctx, fields...) // the element sits outside the shared tag

	var items []string
	for _, id := range ids {
		items = append(items, "item:"+strconv.Itoa(id))
	}
	rdb.Del(ctx, items...) // want `Del keys "item:<strconv.Itoa\(id\)>" for two different elements of ids are on different hash slots for all but about 1 in 16384 pairs of them`

	var prefixed []string
	for _, t := range tags {
		prefixed = append(prefixed, t+":x")
	}
	rdb.Del(ctx, prefixed...) // want `Del keys "<tags\[i\]>:x" for two different elements of tags are on different hash slots for all but about 1 in 16384 pairs of them, unless tags\[i\] holds a hash tag`
}

func balanceKey(acct, period string) string {
	var b strings.Builder
	b.WriteString("bal:")
	b.WriteString(acct)
	b.WriteByte(':')
	b.WriteString(period)
	return b.String()
}

func branchKey(acct string, old bool) string {
	var b strings.Builder
	b.WriteString("bal:")
	if old {
		b.WriteString("old:")
	}
	b.WriteString(acct)
	return b.String()
}

// strings.Builder builds keys as + does, in straight-line code.
func builders(ctx context.Context, rdb *redis.ClusterClient, acct string, old bool) {
	rdb.MGet(ctx, balanceKey(acct, "cur"), balanceKey(acct, "prev")) // want `MGet keys "bal:<acct>:cur" and "bal:<acct>:prev" are on different hash slots for all but about 1 in 16384 values of acct \(assuming acct holds no brace\)`
	rdb.MGet(ctx, balanceKey("{"+acct+"}", "cur"), balanceKey("{"+acct+"}", "prev"))
	rdb.MGet(ctx, branchKey(acct, old), branchKey(acct, !old)) // written on one path only: not read
}

// An append under a condition adds keys that meet the others on that path.
func conditionalAppend(ctx context.Context, rdb *redis.ClusterClient, withAudit, summer bool) {
	keys := []string{"{order}:1", "{order}:2"}
	if withAudit {
		keys = append(keys, "audit:orders")
	}
	rdb.Del(ctx, keys...) // want `Del keys "\{order\}:1" \(slot \d+\) and "audit:orders" \(slot \d+\) are on different hash slots`

	tagged := []string{"{order}:1"}
	if withAudit {
		tagged = append(tagged, "{order}:audit")
	}
	rdb.Del(ctx, tagged...)

	var either []string
	if summer {
		either = append(either, "season:summer")
	} else {
		either = append(either, "season:winter")
	}
	rdb.Del(ctx, either...) // one key on each path: they never meet
}

// A transaction that queues commands in a loop over an input.
func loopTransactions(ctx context.Context, rdb *redis.ClusterClient, ids []string, user string) {
	pipe := rdb.TxPipeline()
	for _, id := range ids {
		pipe.Incr(ctx, "visits:"+id) // want `TxPipeline keys "visits:<ids\[i\]>" \(Incr\) and "visits:<ids\[i\]>" \(Incr\) for two different elements of a loop are on different hash slots for all but about 1 in 16384 pairs of them \(assuming ids\[i\] holds no brace\)`
	}
	pipe.Exec(ctx)

	tagged := rdb.TxPipeline()
	for _, f := range ids {
		tagged.Incr(ctx, "user:{"+user+"}:"+f)
	}
	tagged.Exec(ctx)

	raw := rdb.TxPipeline()
	for _, k := range ids {
		raw.Incr(ctx, k) // a raw key at the start may carry a tag
	}
	raw.Exec(ctx)
}

// A call through another package's interface follows its one
// implementation, even though the implementing type is unexported there.
type ledger struct{ store keys.Store }

func (l ledger) move(ctx context.Context, acct string) {
	l.store.Pair(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev") // want `MGet keys "bal:<acct>:cur" and "bal:<acct>:prev" are on different hash slots for all but about 1 in 16384 values of acct \(assuming acct holds no brace\) in keys.Store.Pair \(keys.go:\d+\)`
	l.store.Drop(ctx, "ledger:{"+acct+"}:a", "ledger:{"+acct+"}:b")
	l.store.Drop(ctx, "ledger:a", "ledger:b") // want `Del keys "ledger:a" \(slot \d+\) and "ledger:b" \(slot \d+\) are on different hash slots in keys.Store.Drop \(keys.go:\d+\)`
}

// fileJournal is a second implementation of keys.Journal: a call through
// the interface here is judged with each implementation.
type fileJournal struct{}

func (fileJournal) Append(ctx context.Context, keys ...string) error { return nil }

func appendBoth(ctx context.Context, j keys.Journal) {
	j.Append(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots in keys.redisJournal.Append`
}

func bothSessions(ctx context.Context, s keys.Sessions) {
	s.Both(ctx, "a", "b") // its one implementation runs on a *redis.Client
}

// A variable assigned on some paths only is "" on the others: slot 0.
func zeroOnPath(ctx context.Context, rdb *redis.ClusterClient, ch, token string) error {
	var dedup string
	if token != "" {
		dedup = "dedup:{" + ch + "}:" + token
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		return err // a test of something else on the way
	}
	rdb.MGet(ctx, "log:{"+ch+"}", dedup) // want `MGet keys "log:{<ch>}" and "" \(dedup on the paths that leave it unassigned\) are on different hash slots for all but about 1 in 16384 values of ch`
	if dedup != "" {
		rdb.MGet(ctx, "log:{"+ch+"}", dedup) // "" is tested away
	}
	if len(dedup) > 0 {
		rdb.MGet(ctx, "log:{"+ch+"}", dedup)
	}
	if token != "" {
		rdb.MGet(ctx, "log:{"+ch+"}", dedup) // the test that assigned it
	}
	if dedup == "" {
		return nil
	}
	rdb.MGet(ctx, "log:{"+ch+"}", dedup)
	return nil
}

// Where the test on the way leaves "" out, the message names keys that
// can meet.
func zeroGuardedInTransaction(ctx context.Context, rdb *redis.ClusterClient, id string) {
	k := ""
	if id != "" {
		k = "b:" + id
	}
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "a:{x}")
	if k != "" {
		pipe.Incr(ctx, k) // want `TxPipeline keys "a:{x}" \(Incr\) and "b:<id>" \(Incr\) are on different hash slots for all but about 1 in 16384 values of id`
	}
	pipe.Exec(ctx)
}

// kv is a project interface of go-redis's own methods (a narrow client for
// tests): a call through it sends go-redis's command.
type kv interface {
	MGet(ctx context.Context, keys ...string) *redis.SliceCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

type board struct{ rdb kv }

func (b board) read(ctx context.Context) {
	b.rdb.MGet(ctx, "a", "b") // want `^MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; send one call per slot, or give keys that belong together one hash tag$`
	b.rdb.MGet(ctx, "{t}a", "{t}b")
	b.rdb.Del(ctx, "a", "b") // want `^Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; send one call per slot, or give keys that belong together one hash tag$`
}

// A method of another signature is not go-redis's.
type counter interface {
	MGet(ctx context.Context, keys ...string) error
}

func readCounter(ctx context.Context, c counter) {
	c.MGet(ctx, "a", "b")
}

// localBoard's client is only ever a *redis.Client: one node.
type localBoard struct{ rdb kv }

func newLocalBoard() localBoard { return localBoard{rdb: redis.NewClient(&redis.Options{})} }

func (b localBoard) read(ctx context.Context) {
	b.rdb.MGet(ctx, "a", "b")
}

func acctTag(id int64) string {
	var b strings.Builder
	b.WriteString("acct:{")
	fmt.Fprintf(&b, "%d", id)
	b.WriteString("}")
	return b.String()
}

func acctPlain(id int64) string {
	var b strings.Builder
	io.WriteString(&b, "acct:")
	fmt.Fprint(&b, id)
	return b.String()
}

func acctGiven(id int64, w func(io.Writer)) string {
	var b strings.Builder
	b.WriteString("acct:")
	w(&b)
	return b.String()
}

// A builder reads as the text it builds, whatever writes into it: its own
// methods, fmt.Fprintf, fmt.Fprint, io.WriteString.
func writtenBuilders(ctx context.Context, rdb *redis.ClusterClient, id int64, w func(io.Writer)) {
	tagged := acctTag(id)
	rdb.MGet(ctx, tagged+":bal", tagged+":hold")
	plain := acctPlain(id)
	rdb.MGet(ctx, plain+":bal", plain+":hold") // want `MGet keys "acct:<id>:bal" and "acct:<id>:hold" are on different hash slots for all but about 1 in 16384 values of id`
	given := acctGiven(id, w)                  // written by code it does not see: one value
	rdb.MGet(ctx, given+":bal", given+":hold") // want `MGet keys "<given>:bal" and "<given>:hold" are on different hash slots for all but about 1 in 16384 values of given, unless given holds a hash tag`
}
