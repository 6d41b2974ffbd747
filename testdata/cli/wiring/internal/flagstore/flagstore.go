// Package flagstore builds its keys under a prefix its constructor is
// given: main gives one that is a hash tag, so every flag is on one slot.
package flagstore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Store holds the flags.
type Store struct {
	c      *redis.ClusterClient
	prefix string
}

// New returns a store whose keys start with prefix.
func New(c *redis.ClusterClient, prefix string) *Store { return &Store{c: c, prefix: prefix} }

// Get reads two flags.
func (s *Store) Get(ctx context.Context, a, b string) []any {
	return s.c.MGet(ctx, s.prefix+"flag:"+a, s.prefix+"flag:"+b).Val()
}

// Rename renames a flag.
func (s *Store) Rename(ctx context.Context, a string) error {
	return s.c.Rename(ctx, s.prefix+"flag:"+a, s.prefix+":{"+a+"}").Err()
}
