// Package ignored has reviewed findings silenced with //crossslot:ignore,
// which every front end honours, go vet included.
package ignored

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func reviewed(ctx context.Context, rdb *redis.ClusterClient) {
	//crossslot:ignore crossslot one shard in this deployment
	rdb.MGet(ctx, "user:1:a", "user:2:a")
	rdb.MGet(ctx, "user:3:a", "user:4:a") //crossslot:ignore crossslot,emptytag reviewed: a single-slot test cluster
	//crossslot:ignore emptytag reviewed, but for another check
	rdb.MGet(ctx, "user:5:a", "user:6:a") // want `MGet keys "user:5:a"`
	_ = 0 /* want `//crossslot:ignore needs the checks it silences and a reason` */ //crossslot:ignore crossslot
	rdb.MGet(ctx, "user:7:a", "user:8:a") // want `MGet keys "user:7:a"`
	//crossslot:ignore crosslot a typo // want `//crossslot:ignore names "crosslot", which is not a check`
	rdb.MGet(ctx, "user:9:a", "user:10:a") // want `MGet keys "user:9:a"`
	rdb.Get(ctx, "user:{}:a")              //crossslot:ignore emptytag the legacy key, kept for old readers
}

// A directive where a reader of the finding looks: above the call that
// opens the transaction, or above the call that runs the script, both
// related positions of the finding.
func reviewedAtRelatedPositions(ctx context.Context, rdb *redis.ClusterClient) {
	//crossslot:ignore crossslot one shard in staging, where this runs
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:1")
		pipe.Incr(ctx, "visits:2")
		return nil
	})
	//crossslot:ignore scriptslot the audit key is on the declared key's node in staging
	rdb.Eval(ctx, `
		redis.call('INCR', KEYS[1])
		return redis.call('INCR', 'audit:total')`, []string{"visits:1"})
	// The same without a directive, and a directive for another check.
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:3")
		pipe.Incr(ctx, "visits:4") // want `TxPipelined keys "visits:3"`
		return nil
	})
	//crossslot:ignore emptytag not this one
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:5")
		pipe.Incr(ctx, "visits:6") // want `TxPipelined keys "visits:5"`
		return nil
	})
	rdb.Eval(ctx, "redis.call('INCR', KEYS[1]); return redis.call('INCR', 'audit:total')", []string{"visits:1"}) // want `Eval script's INCR key "audit:total"`
}
