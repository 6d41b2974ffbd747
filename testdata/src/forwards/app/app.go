// Package app calls the store's forwarding methods: with arguments of its
// own it sends their commands; passing its parameters on, it forwards them.
package app

import (
	"context"

	"github.com/redis/go-redis/v9"

	"forwards/store"
)

func carts(ctx context.Context, s *store.Store) {
	s.Keys(ctx, "cart:*")     // want `^store.Store.Keys sends KEYS \(store.go:17\) on a client that may be a cluster client, where it runs on one node and sees only the keys of that node's slots; run it on each master with ForEachMaster`
	s.ByPrefix(ctx, "orders") // want `^store.Store.ByPrefix sends KEYS \(store.go:17\) on a client that may be a cluster client`
	s.Sessions(ctx)           // reported inside Sessions, once
}

// lookup passes its pattern on: its callers decide.
func lookup(ctx context.Context, s *store.Store, pattern string) []string {
	return s.Keys(ctx, pattern)
}

func users(ctx context.Context, s *store.Store) {
	lookup(ctx, s, "user:*") // want `^lookup sends KEYS \(store.go:17\) on a client that may be a cluster client`
}

func clients(ctx context.Context, cluster *redis.ClusterClient, u redis.UniversalClient) {
	single := redis.NewClient(&redis.Options{Addr: "a:6379"})
	store.KeysOn(ctx, single, "a:*")  // one server
	store.KeysOn(ctx, cluster, "a:*") // want `^store.KeysOn sends KEYS \(store.go:37\) on a client that may be a cluster client`
	store.KeysOn(ctx, u, "a:*")       // want `^store.KeysOn sends KEYS`
	store.Flush(ctx, u)
	cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		store.KeysOn(ctx, node, "a:*") // per node: the fix
		return nil
	})
}

func recorded(ctx context.Context, r *store.Recorder) {
	r.ExpectKeys(ctx, "a:*") // a mock's expectation
}
