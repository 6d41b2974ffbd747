// Package lib is importable by any module: its callers are out of sight, so
// its findings stay where its commands are, whatever this module wires.
package lib

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Lib holds the client New is given.
type Lib struct {
	rdb redis.Cmdable
}

// New returns a Lib on rdb.
func New(rdb redis.Cmdable) *Lib { return &Lib{rdb: rdb} }

// Pair reads two users' profiles in one call.
func (l *Lib) Pair(ctx context.Context) []any {
	return l.rdb.MGet(ctx, "user:1:profile", "user:2:profile").Val() // reported: crossslot
}
