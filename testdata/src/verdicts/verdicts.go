// Package verdicts has keys with unknown parts: proved on different slots
// for every value (CRC16 linearity), near-sure, the same, or unrelated.
package verdicts

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func verdicts(ctx context.Context, rdb *redis.ClusterClient, id, other int, prefix string) {
	rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id))     // want `MGet keys "order:<id>:items" and "order:<id>:total" are on different hash slots for every value of id`
	rdb.MGet(ctx, fmt.Sprintf("user:%d:profile", id), fmt.Sprintf("user:%d:settings", id))  // want `MGet keys "user:<id>:profile" and "user:<id>:settings" are on different hash slots for all but about 1 in 16384 values of id`
	rdb.MGet(ctx, prefix+":tokens", prefix+":ts")                                           // prefix may hold a brace: unknown
	rdb.MGet(ctx, fmt.Sprintf("rate:%x:tokens", prefix), fmt.Sprintf("rate:%x:ts", prefix)) // want `MGet keys "rate:<prefix>:tokens" and "rate:<prefix>:ts" are on different hash slots for all but about 1 in 16384 values of prefix`
	rdb.MGet(ctx, fmt.Sprintf("user:%d:a", id), fmt.Sprintf("user:%d:a", other))            // want `MGet keys "user:<id>:a" and "user:<other>:a" are on different hash slots for all but about 1 in 16384 pairs of different values of id and other`
	rdb.MGet(ctx, fmt.Sprintf("user:%d:a", id), fmt.Sprintf("user:%d:a", id))               // the same key: silent
	rdb.MGet(ctx, fmt.Sprintf("x:{%d}:items", id), fmt.Sprintf("y:{%d}:total", id))         // one tag: silent
	rdb.MGet(ctx, fmt.Sprintf("%d:items", id), fmt.Sprintf("%d:total", id))                 // want `for every value of id`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("order:%d:items", id))
		p.Incr(ctx, fmt.Sprintf("order:%d:total", id)) // want `TxPipelined keys "order:<id>:items" \(Incr\) and "order:<id>:total" \(Incr\) are on different hash slots for every value of id; go-redis v9.11\+ rejects this transaction`
		return nil
	})
}

// A value captured by nested closures is the same value everywhere.
func nested(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		func() {
			p.Incr(ctx, fmt.Sprintf("user:{%d}:a", id))
			p.Incr(ctx, fmt.Sprintf("user:{%d}:b", id))
			rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id)) // want `for every value of id`
		}()
		return nil
	})
	id2 := id
	id2++ // written again: two values
	func() { rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id2), fmt.Sprintf("order:%d:total", id2)) }()
}
