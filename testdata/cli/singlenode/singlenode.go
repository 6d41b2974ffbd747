// Package singlenode is the fixture for -crossslot.include-single-node in
// the standalone command.
package singlenode

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func onOneNode(ctx context.Context, rdb *redis.Client) {
	rdb.MGet(ctx, "user:1:a", "user:2:a") // reported with -crossslot.include-single-node: crossslot
}
