// Package proofsonly is verdicts run with -proofs-only: the near-sure tier
// is silent, the proofs stay.
package proofsonly

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func verdicts(ctx context.Context, rdb *redis.ClusterClient, id, other int, prefix string) {
	rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id))     // want `MGet keys "order:<id>:items" and "order:<id>:total" are on different hash slots for every value of id`
	rdb.MGet(ctx, fmt.Sprintf("user:%d:profile", id), fmt.Sprintf("user:%d:settings", id))  // near-sure: silent
	rdb.MGet(ctx, prefix+":tokens", prefix+":ts")                                           // prefix may hold a brace: unknown
	rdb.MGet(ctx, fmt.Sprintf("rate:%x:tokens", prefix), fmt.Sprintf("rate:%x:ts", prefix)) // near-sure: silent
	rdb.MGet(ctx, fmt.Sprintf("user:%d:a", id), fmt.Sprintf("user:%d:a", other))            // different unknown values: silent
	rdb.MGet(ctx, fmt.Sprintf("user:%d:a", id), fmt.Sprintf("user:%d:a", id))               // the same key: silent
	rdb.MGet(ctx, fmt.Sprintf("x:{%d}:items", id), fmt.Sprintf("y:{%d}:total", id))         // one tag: silent
	rdb.MGet(ctx, fmt.Sprintf("%d:items", id), fmt.Sprintf("%d:total", id))                 // want `for every value of id`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("order:%d:items", id))
		p.Incr(ctx, fmt.Sprintf("order:%d:total", id)) // want `TxPipelined keys "order:<id>:items" \(Incr\) and "order:<id>:total" \(Incr\) are on different hash slots for every value of id; go-redis v9.11\+ rejects this transaction`
		return nil
	})
}
