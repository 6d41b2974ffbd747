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
