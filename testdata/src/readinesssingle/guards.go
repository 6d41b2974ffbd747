package readinesssingle

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Code that checks for a cluster client already does something else on
// one: with -include-single-node too, its single-node branch is left out.

type Switcher struct{ rdb redis.UniversalClient }

func (s *Switcher) Keys(ctx context.Context) []string {
	switch c := s.rdb.(type) {
	case *redis.Client:
		return s.rdb.Keys(ctx, "sess:*").Val() // the single-node branch, through the field
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

// No return after the check: the call runs on a cluster client too.
func (e *Early) Lenient(ctx context.Context, warn func()) error {
	if _, ok := e.rdb.(*redis.ClusterClient); ok {
		warn()
	}
	return e.rdb.FlushDB(ctx).Err() // want `^FLUSHDB on a cluster client runs on one node`
}

// A client made with one address in a retry loop is one server's: what
// breaks when it becomes a cluster's is reported.
func retried(ctx context.Context, addr string) {
	var rdb redis.UniversalClient
	for i := 0; i < 3; i++ {
		rdb = redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{addr}})
		if rdb.Ping(ctx).Err() == nil {
			break
		}
	}
	rdb.MGet(ctx, "a:1", "b:2") // want `^MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}
