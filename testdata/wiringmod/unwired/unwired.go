// Package unwired is imported by no main of the module but a tool built
// with a tag: its callers are out of sight, so its findings stay where its
// commands are.
package unwired

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Store holds the client New is given.
type Store struct {
	rdb redis.Cmdable
}

// New returns a store on rdb.
func New(rdb redis.Cmdable) *Store { return &Store{rdb: rdb} }

// Pair reads two entries in one call.
func (s *Store) Pair(ctx context.Context, a, b string) []any {
	return s.rdb.MGet(ctx, "entry:"+a, "entry:"+b).Val() // reported: crossslot
}
