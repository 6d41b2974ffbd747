// Package ring sends multi-key commands and transactions on go-redis's
// Ring, which shards keys by hash tag over plain servers: keys that hash
// by different values may be on different shards, with no error.
package ring

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func newRing() *redis.Ring {
	return redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"shard1": ":7001", "shard2": ":7002"}})
}

func commands(ctx context.Context, a, b string) {
	ring := newRing()
	ring.MGet(ctx, "user:1:a", "user:2:a")     // want `^MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) hash by different values; on go-redis's Ring they may sit on different shards, and MGet runs on the first key's shard`
	ring.MGet(ctx, "user:{1}:a", "user:{1}:b") // one hash tag: one shard
	ring.Rename(ctx, "sess:"+a, "sess:"+b)     // want `^Rename keys "sess:<a>" and "sess:<b>" hash by different values for all but about 1 in 16384 pairs of different values of a and b`
	ring.Rename(ctx, "sess:{"+a+"}:old", "sess:{"+a+"}:new")
	ring.Del(ctx, "cart:"+a) // one key
	ring.MSet(ctx, "n:{x}:1", 1, "n:{x}:2", 2)
}

func transactions(ctx context.Context, a string) {
	ring := newRing()
	ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "order:1:count")
		p.Incr(ctx, "order:2:count") // want `^TxPipelined keys "order:1:count" \(slot \d+, Incr\) and "order:2:count" \(slot \d+, Incr\) hash by different values; on go-redis's Ring they may sit on different shards, and the Ring runs one MULTI/EXEC per shard`
		return nil
	})
	ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "order:{"+a+"}:count")
		p.Expire(ctx, "order:{"+a+"}:count", 0)
		return nil
	})
	ring.Pipelined(ctx, func(p redis.Pipeliner) error { // a pipeline: each command to its own shard
		p.Incr(ctx, "order:1:count")
		p.Incr(ctx, "order:2:count")
		return nil
	})
	ring.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "stock:9") // want `^Watch keys "stock:7" \(slot \d+\) and Get key "stock:9" \(slot \d+\) hash by different values; on go-redis's Ring`
		return nil
	}, "stock:7")
}

// asUniversal holds the Ring in an interface: every value of it is a Ring.
func asUniversal(ctx context.Context) {
	var u redis.UniversalClient = newRing()
	u.MGet(ctx, "a:1", "b:2") // want `^MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) hash by different values; on go-redis's Ring`
}

// either may be a Ring or a cluster client: the crossslot check speaks.
func either(ctx context.Context, cluster bool) {
	var u redis.UniversalClient = newRing()
	if cluster {
		u = redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{":7000"}})
	}
	u.MGet(ctx, "a:1", "b:2") // want `^MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots; send one call per slot`
}

// single is one server: neither check speaks.
func single(ctx context.Context) {
	c := redis.NewClient(&redis.Options{Addr: ":6379"})
	c.MGet(ctx, "a:1", "b:2")
}

// keyspace: a command without keys goes to one shard, chosen at random,
// where a cluster client would have run DBSIZE and SCRIPT LOAD on every
// master. A Ring's shards are plain servers: databases and SORT patterns
// are theirs to have.
func keyspace(ctx context.Context) {
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"shard1": ":7001", "shard2": ":7002"}, DB: 2})
	ring.Keys(ctx, "user:*")         // want `^KEYS on go-redis's Ring runs on one shard, chosen at random, and sees only that shard's keys; run it on each shard with ForEachShard`
	ring.FlushDB(ctx)                // want `^FLUSHDB on go-redis's Ring runs on one shard, chosen at random, and clears only that shard's keys`
	ring.DBSize(ctx)                 // want `^DBSIZE on go-redis's Ring runs on one shard, chosen at random, and counts only that shard's keys`
	ring.ScriptLoad(ctx, "return 1") // want `^SCRIPT LOAD on go-redis's Ring runs on one shard, chosen at random, and loads the script there only: an EVALSHA of it fails with NOSCRIPT on the others; run it with Script.Run`
	ring.Sort(ctx, "ids", &redis.Sort{By: "w_*"})
	ring.Do(ctx, "SELECT", 3)
	ring.Eval(ctx, "return redis.call('KEYS', 'user:*')", []string{"{u}:n"}) // want `^Eval script's KEYS runs on go-redis's Ring on the shard of the script's first key and sees only that shard's keys; keep the keys it looks for in a set, or run it from the client on each shard with ForEachShard`
	ring.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"{u}:n"})
	ring.ForEachShard(ctx, func(ctx context.Context, c *redis.Client) error {
		c.DBSize(ctx)
		return c.FlushDB(ctx).Err()
	})
}
