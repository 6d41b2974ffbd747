// Package rewards builds its keys under a prefix its constructor is given:
// main gives one without a tag, so the keys of two rewards, or of one
// reward under two layouts, are on different slots.
package rewards

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Catalog holds the rewards' keys.
type Catalog struct {
	c      *redis.ClusterClient
	prefix string
}

// New returns a catalog whose keys start with prefix.
func New(c *redis.ClusterClient, prefix string) *Catalog { return &Catalog{c: c, prefix: prefix} }

// Stock reads a reward's stock and holds.
func (k *Catalog) Stock(ctx context.Context, r string) []any {
	return k.c.MGet(ctx, k.prefix+":stock:"+r, k.prefix+":holds:"+r).Val() // reported: crossslot
}

// Tagged reads a reward's stock and holds under its tag.
func (k *Catalog) Tagged(ctx context.Context, r string) []any {
	return k.c.MGet(ctx, k.prefix+":{"+r+"}:stock", k.prefix+":{"+r+"}:holds").Val()
}

// Migrate moves a reward's stock to the tagged layout: apart when the
// prefix holds no tag, together when it does.
func (k *Catalog) Migrate(ctx context.Context, r string) error {
	return k.c.Rename(ctx, k.prefix+":stock:"+r, k.prefix+":{"+r+"}:stock").Err() // reported: crossslot
}
