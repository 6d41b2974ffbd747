package oneserver

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// A client made with one address in a retry loop: every client the loop
// makes is one server's, and the nil it starts from sends nothing.
func retried(ctx context.Context, addr string) {
	var rdb redis.UniversalClient
	for i := 0; i < 3; i++ {
		rdb = redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{addr}})
		if rdb.Ping(ctx).Err() == nil {
			break
		}
	}
	rdb.Keys(ctx, "sess:*")
	rdb.MGet(ctx, "a:1", "b:2")
}

// The same loop with a cluster's addresses: a cluster client.
func retriedCluster(ctx context.Context, addrs []string) {
	var rdb redis.UniversalClient
	for i := 0; i < 3; i++ {
		rdb = redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:1", "b:2"}})
		if rdb.Ping(ctx).Err() == nil {
			break
		}
	}
	rdb.MGet(ctx, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}

// A type switch on a field: the single-node case calls through the field.
type Switcher struct{ rdb redis.UniversalClient }

func (s *Switcher) Keys(ctx context.Context) []string {
	switch c := s.rdb.(type) {
	case *redis.Client:
		return s.rdb.Keys(ctx, "sess:*").Val()
	case *redis.ClusterClient:
		var out []string
		c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			out = append(out, node.Keys(ctx, "sess:*").Val()...)
			return nil
		})
		return out
	}
	return nil
}

// An early return after a cluster client type check: the call runs on a
// client that is not a cluster's.
type Early struct{ rdb redis.UniversalClient }

func (e *Early) Flush(ctx context.Context) error {
	if _, ok := e.rdb.(*redis.ClusterClient); ok {
		return errors.New("flush: not on a cluster")
	}
	return e.rdb.FlushDB(ctx).Err()
}

func (e *Early) Move(ctx context.Context) error {
	if _, isCluster := e.rdb.(*redis.ClusterClient); isCluster {
		return errors.New("move: not on a cluster")
	}
	return e.rdb.Rename(ctx, "q:ready", "q:done").Err()
}

// No return: the call runs on either.
func (e *Early) Lenient(ctx context.Context, warn func()) error {
	if _, ok := e.rdb.(*redis.ClusterClient); ok {
		warn()
	}
	return e.rdb.FlushDB(ctx).Err() // want `^FLUSHDB on a cluster client runs on one node`
}
