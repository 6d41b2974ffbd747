// Package txv8 has a transaction on go-redis v8, which splits it per slot.
package txv8

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func split(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b") // want `TxPipelined keys "a" \(slot 15495, Incr\) and "b" \(slot 3300, Incr\) are on different hash slots; go-redis before v9.11 splits it per slot: it is not atomic`
		return nil
	})
}
