// Package catalogue serves rendered lot pages from the cache tier and reads
// live lot fields through client-side caching.
package catalogue

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// Doc is a rendered lot page.
type Doc struct {
	Lot      keys.LotID
	Category string
	Body     string
	ETag     string
}

// Cache is the page cache. It is a go-redis Ring of plain cache servers.
type Cache struct {
	ring redis.UniversalClient
	ttl  time.Duration
}

func NewCache(ring redis.UniversalClient, ttl time.Duration) *Cache {
	return &Cache{ring: ring, ttl: ttl}
}

// Put stores one page.
func (c *Cache) Put(ctx context.Context, d Doc) error {
	return c.ring.Set(ctx, keys.CatalogueDoc(d.Lot), d.Body, c.ttl).Err()
}

// GetMany fetches many pages for a category listing. Missing pages are "".
func (c *Cache) GetMany(ctx context.Context, ids ...keys.LotID) (map[keys.LotID]string, error) {
	// case B41: ringshard
	ks := make([]string, len(ids))
	for i, id := range ids {
		ks[i] = keys.CatalogueDoc(id)
	}
	vals, err := c.ring.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[keys.LotID]string, len(ids))
	for i, v := range vals {
		s, _ := v.(string)
		out[ids[i]] = s
	}
	return out, nil
}

// GetManyPipelined fetches many pages with one GET each, pipelined.
func (c *Cache) GetManyPipelined(ctx context.Context, ids ...keys.LotID) (map[keys.LotID]string, error) {
	// case B42: none
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := c.ring.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.Get(ctx, keys.CatalogueDoc(id))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make(map[keys.LotID]string, len(ids))
	for i, cmd := range cmds {
		out[ids[i]] = cmd.Val()
	}
	return out, nil
}

var putIndexed = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
`)

// PutWithIndex stores a page and registers it in its category index in one
// script so listings never point at a missing page.
func (c *Cache) PutWithIndex(ctx context.Context, d Doc, rank float64) error {
	// case B43: ringshard
	return putIndexed.Run(ctx, c.ring,
		[]string{keys.CatalogueDoc(d.Lot), keys.CatalogueIndex(d.Category)},
		d.Body, c.ttl.Milliseconds(), rank, d.Lot.String()).Err()
}

// IndexRank reads a lot's position in a category index.
func (c *Cache) IndexRank(ctx context.Context, category string, id keys.LotID) (float64, error) {
	return c.ring.ZScore(ctx, keys.CatalogueIndex(category), id.String()).Result()
}

var putETagged = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`)

// PutWithETag stores a page and its etag atomically.
func (c *Cache) PutWithETag(ctx context.Context, d Doc) error {
	// case B44: none
	doc, etag := keys.CatalogueETagged(d.Lot)
	return putETagged.Run(ctx, c.ring, []string{doc, etag}, d.Body, d.ETag, c.ttl.Milliseconds()).Err()
}

// GetWithETag reads a page and its etag.
func (c *Cache) GetWithETag(ctx context.Context, id keys.LotID) (body, etag string, err error) {
	doc, et := keys.CatalogueETagged(id)
	body, err = c.ring.Get(ctx, doc).Result()
	if err != nil {
		return "", "", err
	}
	etag, err = c.ring.Get(ctx, et).Result()
	return body, etag, err
}
