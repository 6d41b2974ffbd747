package verdicts

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Advice that is always safe: two entities of one family are never told
// to share one constant tag, a transaction over two entities is told that
// atomicity cannot hold across slots, and a move between two entities is
// done in the client.

func remedies(ctx context.Context, rdb *redis.ClusterClient, from, to string) {
	rdb.MGet(ctx, "shop:stock:1", "shop:stock:2")                // want `MGet keys "shop:stock:1" \(slot \d+\) and "shop:stock:2" \(slot \d+\) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.MGet(ctx, "user:1:profile", "user:1:settings")           // want `; give them the hash tag \{user:1\}, as in "\{user:1\}:profile"$`
	rdb.Rename(ctx, "acct:{"+from+"}", "acct:{"+to+"}")          // want `Rename keys "acct:\{<from>\}" and "acct:\{<to>\}" are on different hash slots .*; move the data in the client \(read, write, then delete the source\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.SUnionStore(ctx, "acct:"+from, "acct:"+from, "acct:"+to) // want `; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "balance:"+from)
		p.Incr(ctx, "balance:"+to) // want `TxPipelined keys "balance:<from>" \(Incr\) and "balance:<to>" \(Incr\) are on different hash slots .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "order:"+from+":items")
		p.Incr(ctx, "order:"+from+":total") // want `; make from their hash tag, as in "order:\{<from>\}:items"$`
		return nil
	})
}
