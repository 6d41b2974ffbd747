// Package precision pins what is single-node and what is not, through
// wrappers, fields, helpers and guards, each beside a twin that stays
// reported.
package precision

import (
	"context"

	"github.com/redis/go-redis/v9"

	"precision/store"
)

func scriptWrappers(ctx context.Context, single *redis.Client, cluster *redis.ClusterClient) {
	store.SetBatch(ctx, single, []string{"key1", "key2"})
	store.SetBatch(ctx, cluster, []string{"key1", "key2"}) // want `EvalSha keys "key1" \(slot 9189\) and "key2" \(slot 4998\) are on different hash slots in store.SetBatch \(store.go:16\)`
	store.RunBump(ctx, single, "key1", "key2")
	store.RunBump(ctx, cluster, "key1", "key2") // want `Run keys "key1" \(slot 9189\) and "key2" \(slot 4998\) are on different hash slots in store.RunBump`
}

var local = redis.NewScript("return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])")

// A Script run on a single-node client is single-node.
func scriptOnClient(ctx context.Context, single *redis.Client, cluster redis.UniversalClient) {
	local.Run(ctx, single, []string{"key1", "key2"})
	local.Run(ctx, cluster, []string{"key1", "key2"}) // want `Run keys "key1" \(slot 9189\) and "key2" \(slot 4998\) are on different hash slots`
}

// What a helper that returns a single-node client returns is single-node.
func helperClient(ctx context.Context) {
	rdb := store.NewSingle("localhost:6379")
	rdb.MGet(ctx, "key1", "key2")
}

// Fields set only to single-node clients.
type service struct {
	rdb   redis.UniversalClient
	other redis.UniversalClient
}

func newService(any redis.UniversalClient) *service {
	return &service{rdb: redis.NewClient(&redis.Options{}), other: any}
}

func (s *service) read(ctx context.Context) {
	s.rdb.MGet(ctx, "key1", "key2")
	s.other.MGet(ctx, "key1", "key2") // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
}

// Calls on a project's own client types: single-node by construction, or
// whatever the caller gave.
func ownClients(ctx context.Context, any redis.UniversalClient) {
	store.New("localhost:6379").GetMany(ctx, "key1", "key2")
	store.NewShared(any).GetMany(ctx, "key1", "key2") // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\) are on different hash slots in store.Shared.GetMany`
}

// Client-kind guards.
type guarded struct {
	rdb redis.UniversalClient
}

func (g *guarded) read(ctx context.Context, keys []string) {
	if _, ok := g.rdb.(*redis.ClusterClient); ok {
		for _, k := range keys {
			g.rdb.Get(ctx, k)
		}
		g.rdb.MGet(ctx, "key1", "key2") // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	} else {
		g.rdb.MGet(ctx, "key1", "key2")
	}
	if _, isCluster := g.rdb.(*redis.ClusterClient); !isCluster {
		g.rdb.Del(ctx, "key1", "key2")
	}
	switch g.rdb.(type) {
	case *redis.ClusterClient:
		g.rdb.Del(ctx, "key1", "key2") // want `Del keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	case *redis.Client:
		g.rdb.Del(ctx, "key1", "key2")
	default:
		g.rdb.Unlink(ctx, "key1", "key2")
	}
	g.rdb.Exists(ctx, "key1", "key2") // want `Exists keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
}

// A guard on another client says nothing of this one.
func otherGuard(ctx context.Context, a, b redis.UniversalClient) {
	if _, ok := a.(*redis.ClusterClient); !ok {
		b.MGet(ctx, "key1", "key2") // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	}
}

// A Tx a helper derives from a single-node client is single-node.
func transactions(ctx context.Context, m *store.Meta, any *store.Any) {
	m.Txn(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "key1")
			p.Incr(ctx, "key2")
			return nil
		})
		return err
	}, "key1")
	any.Txn(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "key1")
			p.Incr(ctx, "key2") // want `TxPipelined keys "key1" \(slot 9189, Incr\) and "key2" \(slot 4998, Incr\) are on different hash slots`
			return nil
		})
		return err
	}, "key1")
}
