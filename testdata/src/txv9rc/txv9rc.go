// Package txv9rc uses go-redis v9's release candidates, under their old
// path github.com/go-redis/redis/v9: read as go-redis, and split per slot.
package txv9rc

import (
	"context"

	"github.com/go-redis/redis/v9"
)

func split(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b") // want `TxPipelined keys "a" \(slot 15495, Incr\) and "b" \(slot 3300, Incr\) are on different hash slots; go-redis before v9.11 splits it per slot: it is not atomic`
		return nil
	})
}
