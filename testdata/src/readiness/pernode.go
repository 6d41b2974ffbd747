package readiness

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

// The keys a SCAN of each master returns are of any of its slots: one DEL
// or UNLINK of several fails on the master (a node refuses a command whose
// keys are on two slots, even two slots it owns) and on the cluster client,
// whether they are one page, the pages of a cursor, or the pages of every
// master collected (as readinessclients/scans.go with rueidis).
func perMasterPages(ctx context.Context, cluster *redis.ClusterClient) {
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		var all []string
		var cursor uint64
		for {
			keys, next, err := m.Scan(ctx, cursor, "sess:*", 100).Result()
			if err != nil {
				return err
			}
			all = append(all, keys...)
			if cursor = next; cursor == 0 {
				break
			}
		}
		cluster.Unlink(ctx, all...)     // want `Unlink keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots`
		return m.Del(ctx, all...).Err() // want `Del keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots`
	})
}

func perMasterCollected(ctx context.Context, cluster *redis.ClusterClient) {
	var mu sync.Mutex
	var all []string
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		keys, _, err := m.Scan(ctx, 0, "sess:*", 100).Result()
		mu.Lock()
		all = append(all, keys...)
		mu.Unlock()
		return err
	})
	cluster.Del(ctx, all...) // want `Del keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots`
}

// Near-misses: one key per command; one server's client.
func perMasterOneEach(ctx context.Context, cluster *redis.ClusterClient, single *redis.Client) {
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		keys, _, err := m.Scan(ctx, 0, "sess:*", 100).Result()
		for _, k := range keys {
			m.Del(ctx, k)
			cluster.Unlink(ctx, k)
		}
		return err
	})
	keys, _, _ := single.Scan(ctx, 0, "sess:*", 100).Result()
	single.Del(ctx, keys...)
}

// A helper of the package's own that runs a callback on each master of a
// cluster client, and on the client itself only where a type check ruled a
// cluster client out: the callback's client is one node.
func forEachNode(ctx context.Context, db redis.UniversalClient, fn func(context.Context, redis.Cmdable) error) error {
	if cluster, ok := db.(*redis.ClusterClient); ok {
		return cluster.ForEachMaster(ctx, func(ctx context.Context, shard *redis.Client) error { return fn(ctx, shard) })
	}
	return fn(ctx, db)
}

// everyNode runs its callback on the client whatever it is.
func everyNode(ctx context.Context, db redis.UniversalClient, fn func(context.Context, redis.Cmdable) error) error {
	return fn(ctx, db)
}

func resetAll(ctx context.Context, cluster *redis.ClusterClient) {
	forEachNode(ctx, cluster, func(ctx context.Context, node redis.Cmdable) error {
		return node.FlushDB(ctx).Err() // each master's
	})
	everyNode(ctx, cluster, func(ctx context.Context, node redis.Cmdable) error {
		return node.FlushDB(ctx).Err() // want `FLUSHDB on a cluster client runs on one node`
	})
}

type nodeStore struct{ db redis.UniversalClient }

// A method that hands its callback to the runner is a runner too.
func (s *nodeStore) forEachNode(ctx context.Context, fn func(context.Context, redis.Cmdable) error) error {
	return forEachNode(ctx, s.db, fn)
}

func (s *nodeStore) reset(ctx context.Context) {
	s.forEachNode(ctx, func(ctx context.Context, node redis.Cmdable) error {
		return node.FlushDB(ctx).Err()
	})
}
