// Package searchcache caches event search results. It lives on its own
// standalone Redis next to the search service (see cmd/tixd), not on the
// cluster: the cache is disposable and per region.
package searchcache

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// Cache is the search result cache.
type Cache struct {
	rdb redis.Cmdable
	ttl time.Duration
}

// New returns a cache over any client.
func New(rdb redis.Cmdable, ttl time.Duration) *Cache { return &Cache{rdb: rdb, ttl: ttl} }

// QueryKey hashes a normalized query.
func QueryKey(q string) string {
	h := sha1.Sum([]byte(q))
	return "search:q:" + hex.EncodeToString(h[:8])
}

func venueIndex(v keyspace.VenueID) string { return "search:venue:" + v.String() }

// Put caches a result and indexes it under the venues it mentions.
func (c *Cache) Put(ctx context.Context, q string, ids []keyspace.EventID, venues ...keyspace.VenueID) error {
	// case T89: none
	b, _ := json.Marshal(ids)
	k := QueryKey(q)
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, k, b, c.ttl)
		for _, v := range venues {
			p.SAdd(ctx, venueIndex(v), k)
			p.Expire(ctx, venueIndex(v), c.ttl)
		}
		return nil
	})
	return err
}

// GetMany looks several queries up at once (typeahead prefetch).
func (c *Cache) GetMany(ctx context.Context, qs ...string) ([]any, error) {
	// case T90: none
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = QueryKey(q)
	}
	return c.rdb.MGet(ctx, keys...).Result()
}

// InvalidateVenue drops every cached query that mentions a venue.
func (c *Cache) InvalidateVenue(ctx context.Context, v keyspace.VenueID) (int64, error) {
	// case T91: none
	keys, err := c.rdb.SMembers(ctx, venueIndex(v)).Result()
	if err != nil {
		return 0, err
	}
	return c.rdb.Del(ctx, append(keys, venueIndex(v))...).Result()
}

// Flush empties the cache after a reindex.
func (c *Cache) Flush(ctx context.Context) error {
	// case T92: none
	return c.rdb.FlushDB(ctx).Err()
}
