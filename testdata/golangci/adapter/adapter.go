// Package adapter implements shop.Mover on Redis.
package adapter

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Mover struct{ rdb redis.UniversalClient }

func New(rdb redis.UniversalClient) *Mover { return &Mover{rdb: rdb} }

func (m *Mover) Move(ctx context.Context, src, dst string) error {
	return m.rdb.Rename(ctx, src, dst).Err()
}
