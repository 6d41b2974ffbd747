// Package cache is not under internal/, but the module's main imports it
// and gives it a standalone server's client: main decides, and its
// findings wait for main.
package cache

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Cache holds the client New is given.
type Cache struct {
	rdb redis.Cmdable
}

// New returns a cache on rdb.
func New(rdb redis.Cmdable) *Cache { return &Cache{rdb: rdb} }

// Pair reads two entries in one call.
func (c *Cache) Pair(ctx context.Context, a, b string) []any {
	return c.rdb.MGet(ctx, "cache:"+a, "cache:"+b).Val()
}
