// Package related is the standalone command's fixture for directives at a
// finding's related positions: above the call that opens a transaction, or
// above the call that runs a script. A line that must be reported ends with
// "// reported: CHECK"; every other line must not be.
package related

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func transactions(ctx context.Context, rdb *redis.ClusterClient) {
	//lint:ignore crossslot one shard in staging, where this runs
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:1")
		pipe.Incr(ctx, "visits:2")
		return nil
	})
	//crossslot:ignore crossslot one shard in staging, where this runs
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:3")
		pipe.Incr(ctx, "visits:4")
		return nil
	})
	// A directive for another check silences nothing, and matches nothing.
	//lint:ignore emptytag not this finding's check // reported: directive
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:5")
		pipe.Incr(ctx, "visits:6") // reported: crossslot
		return nil
	})
}

func scripts(ctx context.Context, rdb *redis.ClusterClient) {
	//lint:ignore scriptslot the audit key is on the declared key's node in staging
	rdb.Eval(ctx, `
		redis.call('INCR', KEYS[1])
		return redis.call('INCR', 'audit:total')`, []string{"visits:1"})
	rdb.Eval(ctx, `
		redis.call('INCR', KEYS[1])
		return redis.call('INCR', 'audit:total')`, []string{"visits:1"}) // reported: scriptslot
}
