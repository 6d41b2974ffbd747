// Package store forwards keyspace-wide commands on a client that may be a
// cluster's: the callers that give them their arguments send them.
package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb redis.UniversalClient }

func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

// Keys forwards KEYS; nothing here calls it with a pattern of its own.
func (s *Store) Keys(ctx context.Context, pattern string) []string { // want Keys:`forwards KEYS\(p3\) at store.go:17`
	return s.rdb.Keys(ctx, pattern).Val()
}

// ByPrefix forwards KEYS in turn: its callers decide.
func (s *Store) ByPrefix(ctx context.Context, prefix string) []string { // want ByPrefix:`forwards KEYS\(p3\) at store.go:17`
	return s.Keys(ctx, prefix+":*")
}

// Sessions sends KEYS with a pattern of its own, through Keys.
func (s *Store) Sessions(ctx context.Context) []string {
	return s.Keys(ctx, "sess:*") // want `^Store.Keys sends KEYS \(store.go:17\) on a client that may be a cluster client, where it runs on one node and sees only the keys of that node's slots; run it on each master with ForEachMaster`
}

// Flush sends FLUSHDB itself, whatever its callers give: reported here.
func Flush(ctx context.Context, c redis.UniversalClient) {
	c.FlushDB(ctx) // want `^FLUSHDB on a cluster client runs on one node`
}

// KeysOn forwards KEYS on the client it is given.
func KeysOn(ctx context.Context, c redis.UniversalClient, pattern string) []string { // want KeysOn:`forwards KEYS\(p3\) at store.go:37`
	return c.Keys(ctx, pattern).Val()
}

// Recorder keeps the command it builds, as a mock does: it runs nothing.
type Recorder struct {
	rdb redis.UniversalClient
	cmd *redis.StringSliceCmd
}

func (r *Recorder) ExpectKeys(ctx context.Context, pattern string) {
	r.cmd = r.rdb.Keys(ctx, pattern)
}
