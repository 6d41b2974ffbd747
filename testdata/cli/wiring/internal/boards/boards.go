// Package boards builds its keys under a prefix of the configuration its
// constructor is given: main gives one without a tag.
package boards

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Config configures the boards.
type Config struct {
	KeyPrefix string
}

// Boards are the leaderboards.
type Boards struct {
	c   *redis.ClusterClient
	cfg Config
}

// New returns the boards.
func New(c *redis.ClusterClient, cfg Config) *Boards { return &Boards{c: c, cfg: cfg} }

// Global sums the categories' boards into the global one.
func (b *Boards) Global(ctx context.Context, cats []string) error {
	src := make([]string, 0, len(cats))
	for _, c := range cats {
		src = append(src, b.cfg.KeyPrefix+":lb:"+c)
	}
	return b.c.ZUnionStore(ctx, b.cfg.KeyPrefix+":lb:all", &redis.ZStore{Keys: src}).Err() // reported: crossslot
}
