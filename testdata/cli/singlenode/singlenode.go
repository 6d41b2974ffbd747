// Package singlenode is the fixture for -crossslot.include-single-node in
// the standalone command, and for the plain run's count of the calls it
// leaves out as single-node (three: the MGET, the KEYS, the transaction).
package singlenode

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func onOneNode(ctx context.Context, rdb *redis.Client) {
	rdb.MGet(ctx, "user:1:a", "user:2:a") // reported with -crossslot.include-single-node: crossslot
	rdb.Get(ctx, "user:1:a")              // one key: no check judges it, not counted
	rdb.Keys(ctx, "user:*")               // reported with -crossslot.include-single-node: onenode
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "{user:1}:a")
		p.Incr(ctx, "{user:1}:b")
		return nil
	})
}
