// Package redisstore is the adapter: service.Store on a Redis cluster.
package redisstore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb redis.UniversalClient }

func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func (s *Store) MoveItems(ctx context.Context, src, dst string) error {
	return s.rdb.SMove(ctx, src, dst, "all").Err()
}

func (s *Store) Snapshot(ctx context.Context, keys ...string) ([]any, error) {
	return s.rdb.MGet(ctx, keys...).Result()
}

func (s *Store) Log(ctx context.Context, line string) error {
	return s.rdb.Publish(ctx, "log", line).Err()
}
