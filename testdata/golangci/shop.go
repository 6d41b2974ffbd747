// Package shop is the golangci-lint fixture. A line that golangci-lint must
// report ends with "// golangci: LINTER"; a line reported only with
// include-single-node ends with "// with include-single-node: LINTER".
package shop

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/golangci/store"
)

func onCluster(ctx context.Context, rdb redis.UniversalClient) {
	rdb.MGet(ctx, "user:1:a", "user:2:a")              // golangci: crossslot
	rdb.MGet(ctx, "user:1:profile", "user:1:settings") // golangci: crossslot
	rdb.Get(ctx, "user:{}:profile")                    // golangci: crossslot
	rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")
	rdb.MGet(ctx, "user:3:a", "user:4:a") //nolint:crossslot // one shard in this deployment
}

// Keys built and commands run in another package: facts carry them here.
func acrossPackages(ctx context.Context, rdb redis.UniversalClient) {
	rdb.Del(ctx, store.Cart(1), store.Cart(2)) // golangci: crossslot
	store.Pair(ctx, rdb, "doc:1", "doc:2")     // golangci: crossslot
	store.Pair(ctx, rdb, "{doc}:1", "{doc}:2")
}

func onOneNode(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "cart:9", "orders:9") // with include-single-node: crossslot
}

// Directives above the call that opens a transaction, a related position of
// its finding: crossslot's own, and golangci-lint's, which covers the whole
// statement below it.
func transactions(ctx context.Context, rdb redis.UniversalClient) {
	//crossslot:ignore crossslot one shard in this deployment
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:1")
		pipe.Incr(ctx, "visits:2")
		return nil
	})
	//nolint:crossslot // one shard in this deployment
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:3")
		pipe.Incr(ctx, "visits:4")
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "visits:5")
		pipe.Incr(ctx, "visits:6") // golangci: crossslot
		return nil
	})
}
