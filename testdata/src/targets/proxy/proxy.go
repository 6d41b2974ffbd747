// Package proxy pins -crossslot.target=azure-enterprise: a plain client
// talks to the proxy in front of the cluster, which splits DEL, EXISTS,
// MGET, MSET, TOUCH and UNLINK by slot outside a transaction, refuses every
// other multi-key command, transaction and script across slots, and runs
// keyspace-wide commands on every shard. Under the default target the
// plain client is one server's, and nothing here is reported.
package proxy

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb = redis.NewClient(&redis.Options{Addr: "my-cache.region.redis.azure.net:10000"})

func calls(ctx context.Context, id string) {
	rdb.MGet(ctx, "user:1:a", "user:2:a")   // split and merged
	rdb.Exists(ctx, "user:1:a", "user:2:a") // split and summed
	rdb.Del(ctx, "user:1:a", "user:2:a")    // two entities: not meant to be one write
	rdb.Unlink(ctx, "session:1", "session:2")
	rdb.Touch(ctx, "a", "b")
	rdb.MSet(ctx, "user:"+id+":a", 1, "user:"+id+":b", 2) // want `MSet keys "user:<id>:a" and "user:<id>:b" are on different hash slots for every value of id .*; Azure Managed Redis's Enterprise clustering \(Redis 7.4\) splits it by slot, so it does not fail but is not atomic; if the write must be atomic`
	rdb.Do(ctx, "MGET", "user:1:a", "user:2:a")           // a raw MGET: split too
	rdb.SUnionStore(ctx, "out", "set:1", "set:2")         // want `SUnionStore keys "out" \(slot \d+\) and "set:1" \(slot \d+\) are on different hash slots; Azure Managed Redis's Enterprise clustering \(Redis 7.4\) splits only DEL, EXISTS, MGET, MSET, TOUCH, UNLINK across slots; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.Rename(ctx, "user:1:a", "user:1:b")               // want `Rename keys .* splits only DEL, EXISTS, MGET, MSET, TOUCH, UNLINK across slots`
	rdb.Do(ctx, "SUNIONSTORE", "{s}out", "{s}1", "{s}2")  // one tag
	rdb.Keys(ctx, "user:*")                               // the proxy runs it on every shard
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:1:n")
		p.Incr(ctx, "user:2:n") // want `TxPipelined keys "user:1:n" \(slot 12460, Incr\) and "user:2:n" \(slot 10748, Incr\) are on different hash slots; Azure Managed Redis's Enterprise clustering \(Redis 7.4\) refuses a transaction whose keys are on different slots; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
		return nil
	})
	rdb.Eval(ctx, "return redis.call('MGET', KEYS[1], KEYS[2])", []string{"user:1:a", "user:2:a"}) // want `Eval keys "user:1:a" \(slot \d+\) and "user:2:a" \(slot \d+\)`
}

// The other clients' plain connections to the proxy: the same rules.
func others(ctx context.Context) {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"my-cache.region.redis.azure.net:10000"}, ForceSingleClient: true})
	c.Do(ctx, c.B().Mget().Key("a", "b").Build())
	c.Do(ctx, c.B().Rename().Key("a").Newkey("b").Build()) // want `RENAME keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; Azure Managed Redis's Enterprise clustering \(Redis 7.4\) splits only`
	conn, _ := redigo.Dial("tcp", "my-cache.region.redis.azure.net:10000")
	conn.Do("MGET", "a", "b")
	conn.Do("DEL", "a", "b")
	conn.Do("SMOVE", "a", "b", "m") // want `SMOVE keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; Azure Managed Redis's Enterprise clustering \(Redis 7.4\) splits only`
}
