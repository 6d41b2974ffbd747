// Package ignored has reviewed findings silenced with //crossslot:ignore,
// which every front end honours, go vet included.
package ignored

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

func reviewed(ctx context.Context, rdb *goredis.ClusterClient) {
	//crossslot:ignore crossslot one shard in this deployment
	rdb.MGet(ctx, "user:1:a", "user:2:a")
	rdb.MGet(ctx, "user:3:a", "user:4:a") //crossslot:ignore crossslot,emptytag reviewed: a single-slot test cluster
	//crossslot:ignore emptytag reviewed, but for another check
	rdb.MGet(ctx, "user:5:a", "user:6:a") // want `MGet keys "user:5:a"`
	_ = 0                                 /* want `//crossslot:ignore needs the checks it silences and a reason` */ //crossslot:ignore crossslot
	rdb.MGet(ctx, "user:7:a", "user:8:a") // want `MGet keys "user:7:a"`
	//crossslot:ignore crosslot a typo // want `//crossslot:ignore names "crosslot", which is not a check`
	rdb.MGet(ctx, "user:9:a", "user:10:a") // want `MGet keys "user:9:a"`
	rdb.Get(ctx, "user:{}:a")              //crossslot:ignore emptytag the legacy key, kept for old readers
}

// A directive where a reader of the finding looks: above the call that
// opens the transaction, or above the call that runs the script, both
// related positions of the finding.
func reviewedAtRelatedPositions(ctx context.Context, rdb *goredis.ClusterClient) {
	//crossslot:ignore crossslot one shard in staging, where this runs
	rdb.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.Incr(ctx, "visits:1")
		pipe.Incr(ctx, "visits:2")
		return nil
	})
	//crossslot:ignore scriptslot the audit key is on the declared key's node in staging
	rdb.Eval(ctx, `
		redis.call('INCR', KEYS[1])
		return redis.call('INCR', 'audit:total')`, []string{"visits:1"})
	// The same without a directive, and a directive for another check.
	rdb.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.Incr(ctx, "visits:3")
		pipe.Incr(ctx, "visits:4") // want `TxPipelined keys "visits:3"`
		return nil
	})
	//crossslot:ignore emptytag not this one
	rdb.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.Incr(ctx, "visits:5")
		pipe.Incr(ctx, "visits:6") // want `TxPipelined keys "visits:5"`
		return nil
	})
	rdb.Eval(ctx, "redis.call('INCR', KEYS[1]); return redis.call('INCR', 'audit:total')", []string{"visits:1"}) // want `Eval script's INCR key "audit:total"`
}

// Every way a transaction opens: the directive above the opening call.
func reviewedEveryTransaction(ctx context.Context, rdb *goredis.ClusterClient, rc *redisc.Cluster) {
	//crossslot:ignore crossslot one shard in staging
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "visits:1")
	pipe.Incr(ctx, "visits:2")
	pipe.Exec(ctx)

	//crossslot:ignore crossslot one shard in staging
	rdb.Watch(ctx, func(tx *goredis.Tx) error {
		tx.Get(ctx, "visits:2")
		return nil
	}, "visits:1")

	conn := rc.Get()
	//crossslot:ignore crossslot one shard in staging
	conn.Send("MULTI")
	conn.Send("INCR", "visits:1")
	conn.Send("INCR", "visits:2")
	conn.Do("EXEC")

	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:7000", "b:7000"}})
	//crossslot:ignore crossslot one shard in staging
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Incr().Key("visits:1").Build(),
		c.B().Incr().Key("visits:2").Build(),
		c.B().Exec().Build(),
	)
	// Their twins without a directive are reported.
	conn.Send("MULTI")
	conn.Send("INCR", "visits:3")
	conn.Send("INCR", "visits:4") // want `MULTI/EXEC keys "visits:3"`
	conn.Do("EXEC")
}

var _ = redis.Conn(nil)
