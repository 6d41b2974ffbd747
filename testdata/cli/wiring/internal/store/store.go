// Package store keeps profiles on a client its importers give it. Whether
// that client is a cluster's is decided where it is wired.
package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Store holds the client New is given.
type Store struct {
	rdb redis.UniversalClient
}

// New returns a store on rdb.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

// Pair reads two users' profiles in one call.
func (s *Store) Pair(ctx context.Context) []any {
	return s.rdb.MGet(ctx, "user:1:profile", "user:2:profile").Val() // reported: crossslot
}

// Own reads one user's keys, which share a tag.
func (s *Store) Own(ctx context.Context) []any {
	return s.rdb.MGet(ctx, "{user:1}:profile", "{user:1}:settings").Val()
}

// Reset clears the database.
func (s *Store) Reset(ctx context.Context) error {
	return s.rdb.FlushDB(ctx).Err() // reported: onenode
}

// Known reads a key whose tag is empty: malformed on every server, so it is
// reported here, whatever the wiring.
func (s *Store) Known(ctx context.Context) error {
	return s.rdb.Get(ctx, "user:{}:profile").Err() // reported: emptytag
}

// Moved is silenced where the command is, which holds wherever it is
// judged.
func (s *Store) Moved(ctx context.Context) error {
	//crossslot:ignore crossslot the migration tool reads these one by one
	return s.rdb.Rename(ctx, "user:1:old", "user:2:new").Err()
}
