package builders

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func order(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, itemsKey(id), totalKey(id)) // reported: crossslot
}
