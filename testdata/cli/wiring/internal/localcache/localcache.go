// Package localcache is a cache main gives a standalone server: nothing of
// it is a cluster's problem.
package localcache

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

// Put stores a result and indexes it, in one transaction.
func (c *Cache) Put(ctx context.Context, q, venue string) error {
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "search:q:"+q, "1", 0)
		p.SAdd(ctx, "search:venue:"+venue, q)
		return nil
	})
	return err
}

// Flush empties the cache.
func (c *Cache) Flush(ctx context.Context) error {
	return c.rdb.FlushDB(ctx).Err()
}
