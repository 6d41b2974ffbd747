// Package admin backs the ops console: key counts, sandbox resets, script
// warm-up and notification settings.
package admin

import (
	"context"
	"slices"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Ops is the ops console backend.
type Ops struct {
	rdb     *redis.ClusterClient
	scripts []string
}

// New builds the backend; scripts are preloaded by PreloadScripts.
func New(rdb *redis.ClusterClient, scripts ...string) *Ops {
	return &Ops{rdb: rdb, scripts: scripts}
}

// KeyCount reports the number of keys for the capacity dashboard.
func (o *Ops) KeyCount(ctx context.Context) (int64, error) {
	// case B26: none
	return o.rdb.DBSize(ctx).Result()
}

// LotKeys lists lot keys for the debugging page.
func (o *Ops) LotKeys(ctx context.Context) ([]string, error) {
	// case B27: onenode
	ks, err := o.rdb.Keys(ctx, "lot:*").Result()
	slices.Sort(ks)
	return ks, err
}

// ScanLots walks the keyspace with SCAN instead of KEYS.
func (o *Ops) ScanLots(ctx context.Context) ([]string, error) {
	// case B34: onenode
	var out []string
	iter := o.rdb.Scan(ctx, 0, "lot:*", 500).Iterator()
	for iter.Next(ctx) {
		out = append(out, iter.Val())
	}
	slices.Sort(out)
	return out, iter.Err()
}

// LotKeysAllNodes walks every master with SCAN.
func (o *Ops) LotKeysAllNodes(ctx context.Context) ([]string, error) {
	// case B28: none
	var (
		mu  sync.Mutex
		out []string
	)
	err := o.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		iter := m.Scan(ctx, 0, "lot:*", 500).Iterator()
		var local []string
		for iter.Next(ctx) {
			local = append(local, iter.Val())
		}
		mu.Lock()
		out = append(out, local...)
		mu.Unlock()
		return iter.Err()
	})
	slices.Sort(out)
	return out, err
}

// ResetSandbox empties the sandbox environment before a demo.
func (o *Ops) ResetSandbox(ctx context.Context) error {
	// case B29: onenode
	return o.rdb.FlushDB(ctx).Err()
}

// ResetSandboxAllShards empties every shard.
func (o *Ops) ResetSandboxAllShards(ctx context.Context) error {
	// case B30: none
	return o.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.FlushDB(ctx).Err()
	})
}

// EnableExpiryEvents turns on expired-key events used by the lot closer.
func (o *Ops) EnableExpiryEvents(ctx context.Context) error {
	// case B31: onenode
	return o.rdb.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err()
}

// EnableExpiryEventsEverywhere turns them on for every master.
func (o *Ops) EnableExpiryEventsEverywhere(ctx context.Context) error {
	// case B32: none
	return o.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err()
	})
}

// PreloadScripts loads the service's Lua scripts so EVALSHA hits at once.
func (o *Ops) PreloadScripts(ctx context.Context) ([]string, error) {
	// case B33: none
	shas := make([]string, 0, len(o.scripts))
	for _, src := range o.scripts {
		sha, err := o.rdb.ScriptLoad(ctx, src).Result()
		if err != nil {
			return shas, err
		}
		shas = append(shas, sha)
	}
	return shas, nil
}
