// Package travel calls the client with keys built elsewhere: in builders of
// this package and of travel/keys, in package variables and struct fields,
// and through the wrappers of travel/store.
package travel

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"travel/keys"
	"travel/store"
)

func accountKey(id int) string { return fmt.Sprintf("account:%d", id) }
func invoiceKey(id int) string { return "invoice:" + strconv.Itoa(id) }
func paymentKey(id int) string { return "payment:" + strconv.Itoa(id) }
func nsKey(s string) string    { return keys.Namespace + s }

func builders(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, accountKey(7), accountKey(8))      // want `MGet keys "account:7" \(slot 2611\) and "account:8" \(slot 15324\) are on different hash slots`
	rdb.Del(ctx, invoiceKey(42), paymentKey(42))     // want `Del keys "invoice:42" \(slot 13368\) and "payment:42" \(slot 9055\)`
	rdb.Rename(ctx, nsKey("a"), nsKey("b"))          // want `Rename keys "billing:a" \(slot 7539\) and "billing:b" \(slot 11536\)`
	rdb.MGet(ctx, accountKey(id), accountKey(id+1))  // want `MGet keys "account:<id>" and "account:<id\+1>" are on different hash slots for all but about 1 in 16384 values of id and id\+1`
	rdb.MGet(ctx, accountKey(id), accountKey(id))    // one key twice: silent
	rdb.MGet(ctx, keys.Account(7), keys.Account(8))  // want `MGet keys "account:7" \(slot 2611\) and "account:8" \(slot 15324\)`
	rdb.Del(ctx, keys.Invoice(42), keys.Payment(42)) // want `Del keys "invoice:42" \(slot 13368\) and "payment:42" \(slot 9055\)`
	rdb.MGet(ctx, keys.Profile(id), keys.Settings(id))
	rdb.MGet(ctx, keys.Profile(1), keys.Settings(1))
	rdb.MGet(ctx, keys.Profile(1), keys.Settings(2))                       // want `MGet keys "user:\{1\}:profile" \(slot 9842\) and "user:\{2\}:settings" \(slot 5649\)`
	rdb.MGet(ctx, keys.Lock(1), keys.Lock(2))                              // want `MGet keys "billing:lock:1" \(slot 2439\) and "billing:lock:2" \(slot 14820\)`
	rdb.MGet(ctx, keys.Shard(true, 1), keys.Shard(id > 0, 1))              // one branch is the same key: silent
	rdb.MGet(ctx, keys.FromEnv(), keys.FromEnv())                          // unknown: silent
	rdb.MGet(ctx, keys.Profile(id), keys.Settings(len(ctx.Err().Error()))) // want `MGet keys "user:\{<id>\}:profile" and "user:\{<len\(ctx.Err\(\).Error\(\)\)>\}:settings" are on different hash slots for all but about 1 in 16384 pairs of different values of id and len\(ctx.Err\(\).Error\(\)\)`
}

var auditLog = "audit:all"

var reassigned = "audit:all"

func reassign() { reassigned = "audit:new" }

var neverSet string

var addressTaken = "audit:all"

func setThrough(p *string) { *p = "audit:new" }

func init() { setThrough(&addressTaken) }

// Exported: any importer may set it, so it is not read.
var Exported = "audit:all"

func packageVars(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.SUnionStore(ctx, auditLog, "audit:old") // want `SUnionStore keys "audit:all" \(slot 4454\) and "audit:old" \(slot 2927\)`
	rdb.SUnionStore(ctx, reassigned, "audit:old")
	rdb.SUnionStore(ctx, addressTaken, "audit:old")
	rdb.SUnionStore(ctx, Exported, "audit:old")
	rdb.MGet(ctx, neverSet, "x") // want `MGet keys "" \(slot 0\) and "x" \(slot 16287\)`
}

// Repo keeps its namespace in a field set once, in its constructor.
type Repo struct {
	rdb *redis.ClusterClient
	ns  string
}

func NewRepo(rdb *redis.ClusterClient) *Repo { return &Repo{rdb: rdb, ns: keys.Namespace} }

func (r *Repo) lockKey(id int) string { return fmt.Sprintf("%slock:%d", r.ns, id) }

func (r *Repo) calls(ctx context.Context) {
	r.rdb.Del(ctx, r.ns+"x", r.ns+"y")          // want `Del keys "billing:x" \(slot 7787\) and "billing:y" \(slot 3658\)`
	r.rdb.MGet(ctx, r.lockKey(1), r.lockKey(2)) // want `MGet keys "billing:lock:1" \(slot 2439\) and "billing:lock:2" \(slot 14820\)`
}

// twoValues has its field written with two values: each is a prefix of
// both keys, which differ for either.
type twoValues struct{ ns string }

func newTwo(test bool) *twoValues {
	if test {
		return &twoValues{ns: "test:"}
	}
	return &twoValues{ns: "prod:"}
}

func (t *twoValues) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, t.ns+"x", t.ns+"y") // want `Del keys "test:x" \(slot 12566\) and "test:y" \(slot 8503\) are on different hash slots`
}

// zeroSometimes is sometimes made without its field: not read.
type zeroSometimes struct{ ns string }

func newZero(set bool) *zeroSometimes {
	if set {
		return &zeroSometimes{ns: "z:"}
	}
	return &zeroSometimes{}
}

func (z *zeroSometimes) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, z.ns+"x", z.ns+"y") // want `Del keys "<z.ns>x" and "<z.ns>y" are on different hash slots for every value of z.ns, unless z.ns holds a hash tag`
}

// fromParam has its field set from a parameter: one value at the start of
// both keys, which share a slot only if it holds a tag.
type fromParam struct{ ns string }

func newFromParam(ns string) *fromParam { return &fromParam{ns: ns} }

func (f *fromParam) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, f.ns+"x", f.ns+"y") // want `Del keys "<f.ns>x" and "<f.ns>y" are on different hash slots for every value of f.ns, unless f.ns holds a hash tag`
}

func pair(ctx context.Context, rdb *redis.ClusterClient, a, b string) error {
	return rdb.MGet(ctx, a, b).Err()
}

func wrappers(ctx context.Context, rdb *redis.ClusterClient, c *redis.Client, u redis.UniversalClient, in string, lim *store.Limiter) {
	pair(ctx, rdb, "doc:1", "doc:2") // want `MGet keys "doc:1" \(slot 5105\) and "doc:2" \(slot 9106\) are on different hash slots in pair \(travel.go:\d+\)`
	pair(ctx, rdb, "{doc}:1", "{doc}:2")
	pair(ctx, rdb, in, "doc:2")              // the caller's key is unknown: silent
	store.Pair(ctx, rdb, "doc:1", "doc:2")   // want `MGet keys "doc:1" \(slot 5105\) and "doc:2" \(slot 9106\) are on different hash slots in store.Pair \(store.go:13\)`
	store.Pair(ctx, u, "doc:1", "doc:2")     // want `in store.Pair`
	store.Pair(ctx, c, "doc:1", "doc:2")     // a single-node client: silent
	store.DelAll(ctx, rdb, "doc:1", "doc:2") // want `Del keys "doc:1" \(slot 5105\) and "doc:2" \(slot 9106\) are on different hash slots in store.DelAll \(store.go:18\)`
	store.DelAll(ctx, rdb, "{doc}:1", "{doc}:2")
	store.DelAll(ctx, rdb, []string{"doc:1", "doc:2"}...) // want `Del keys "doc:1" \(slot 5105\) and "doc:2"`
	store.Archive(ctx, rdb, "doc:1")                      // want `Rename keys "doc:1" \(slot 5105\) and "doc:1:archived" \(slot 4974\) are on different hash slots in store.Archive \(store.go:23\)`
	store.Archive(ctx, rdb, "{doc:1}")
	store.Pair(ctx, rdb, "user:{}:a", "user:{}:a") // want `MGet key "user:\{\}:a" has an empty hash tag \{\}`
	store.Twice(ctx, rdb, "doc:1")                 // want `MGet keys "doc:1" \(slot 5105\) and "twice:doc:1" \(slot \d+\) are on different hash slots in store.Twice \(store.go:13\)`
	store.Fixed(ctx, rdb, "{fixed:1}")             // the wrapper's own pair is reported in the wrapper: silent here
	store.WithOwn(ctx, rdb, "own:{2}")             // want `MGet keys "own:\{1\}" \(slot 9842\) and "own:\{2\}" \(slot 5649\) are on different hash slots in store.WithOwn \(store.go:49\)`
	store.WithOwn(ctx, rdb, "x:{1}")
	lim.Allow(ctx, []string{"rate:1:tokens", "rate:2:tokens"}, 1) // want `Run keys "rate:1:tokens" \(slot \d+\) and "rate:2:tokens" \(slot \d+\) are on different hash slots in store.Limiter.Allow \(store.go:38\)`
	lim.Allow(ctx, []string{"rate:{1}:tokens", "rate:{1}:ts"}, 1)
	store.OnClient(ctx, c, "doc:1", "doc:2")
}

// A wrapper of this package that passes its caller's keys on.
func relay(ctx context.Context, rdb *redis.ClusterClient, a string) error {
	return pair(ctx, rdb, a, "relay:"+a)
}

func relays(ctx context.Context, rdb *redis.ClusterClient) {
	relay(ctx, rdb, "doc:1")   // want `MGet keys "doc:1" \(slot 5105\) and "relay:doc:1" \(slot \d+\) are on different hash slots in relay`
	relay(ctx, rdb, "{doc:1}") // "relay:{doc:1}" shares the tag: silent
}

func singleNode(ctx context.Context) {
	c := redis.NewClient(&redis.Options{})
	c.Pipeline().MGet(ctx, "a", "b")
	c.TxPipeline().Del(ctx, "a", "b")
	var u redis.UniversalClient = c
	u.MGet(ctx, "a", "b")
	c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.MGet(ctx, "a", "b")
		return nil
	})
	c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "a", "b")
		return nil
	})
	c.Watch(ctx, func(tx *redis.Tx) error {
		tx.MGet(ctx, "a", "b")
		return nil
	}, "k")
	type embeds struct{ *redis.Client }
	e := embeds{c}
	e.MGet(ctx, "a", "b")
}

func clusterStillChecked(ctx context.Context, rdb *redis.ClusterClient, u redis.UniversalClient) {
	rdb.Pipeline().MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
		return nil
	})
	u.MGet(ctx, "a", "b") // want `MGet keys "a"`
}

// The writes that make a field unknown may sit in functions that do nothing
// else with keys; their bodies must still be read. (The constructors call
// the client, so their bodies are read in any case.)
type setLater struct{ ns string }

func newSetLater(ctx context.Context, rdb *redis.ClusterClient) *setLater {
	rdb.Get(ctx, "boot")
	return &setLater{ns: "s:"}
}

func (s *setLater) SetNS(ns string) { s.ns = ns }

func (s *setLater) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, s.ns+"x", s.ns+"y") // want `Del keys "<s.ns>x" and "<s.ns>y" are on different hash slots for every value of s.ns, unless s.ns holds a hash tag`
}

type madeByNew struct{ ns string }

func newMadeByNew(ctx context.Context, rdb *redis.ClusterClient) *madeByNew {
	rdb.Get(ctx, "boot")
	return &madeByNew{ns: "n:"}
}

func blank() *madeByNew { return new(madeByNew) }

func (m *madeByNew) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, m.ns+"x", m.ns+"y") // want `Del keys "<m.ns>x" and "<m.ns>y" are on different hash slots for every value of m.ns, unless m.ns holds a hash tag`
}

type declaredZero struct{ ns string }

func newDeclaredZero(ctx context.Context, rdb *redis.ClusterClient) *declaredZero {
	rdb.Get(ctx, "boot")
	return &declaredZero{ns: "d:"}
}

func zero() int {
	var d declaredZero
	return len(d.ns)
}

func (d *declaredZero) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, d.ns+"x", d.ns+"y") // want `Del keys "<d.ns>x" and "<d.ns>y" are on different hash slots for every value of d.ns, unless d.ns holds a hash tag`
}

// Set only in its constructor, as Repo: read.
type setOnce struct{ ns string }

func newSetOnce(ctx context.Context, rdb *redis.ClusterClient) *setOnce {
	rdb.Get(ctx, "boot")
	return &setOnce{ns: "o:"}
}

func (s *setOnce) calls(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, s.ns+"x", s.ns+"y") // want `Del keys "o:x" \(slot \d+\) and "o:y" \(slot \d+\)`
}

// Scripts behind a wrapper: the script's undeclared keys are judged where
// the wrapper is called, against the declared keys the call passes.
func scriptWrappers(ctx context.Context, rdb *redis.ClusterClient, qname string) {
	store.Forward(ctx, rdb, "jobs:{"+qname+"}:pending", "jobs:{"+qname+"}:t:") // one tag: silent
	store.Forward(ctx, rdb, "jobs:{q}:pending", "jobs:{q}:t:")                 // one constant tag: silent
	store.Forward(ctx, rdb, "jobs:{q}:pending", "jobs:other:t:")               // want `Run script's HSET key "jobs:other:t:<id>" and the declared key "jobs:\{q\}:pending" are on different hash slots for all but about 1 in 16384 values of id \(assuming id holds no brace\) in store.Forward \(store.go:\d+\)`
	store.Forward(ctx, rdb, "jobs:{a}:pending", "jobs:{b}:t:")                 // want `Run script's HSET key "jobs:\{b\}:t:<id>" \(slot 3300\) and the declared key "jobs:\{a\}:pending" \(slot 15495\) are on different hash slots in store.Forward \(store.go:\d+\)`
	forwardQueue(ctx, rdb, qname)
}

// forwardQueue passes its own parameter on: the keys still depend on it, and
// share its tag.
func forwardQueue(ctx context.Context, rdb redis.UniversalClient, qname string) error {
	return store.Forward(ctx, rdb, "jobs:{"+qname+"}:pending", "jobs:{"+qname+"}:t:")
}

func unlocks(ctx context.Context, rdb *redis.ClusterClient) {
	store.Unlock(ctx, rdb, "task:{q}:1") // the stored name is reported in store, not here
}
