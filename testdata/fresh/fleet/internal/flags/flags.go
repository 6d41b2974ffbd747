// Package flags serves feature flags: global defaults from the config Redis,
// per-city overrides from the main cluster.
package flags

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Store reads and writes flag values.
type Store interface {
	Get(ctx context.Context, names ...string) (map[string]bool, error)
	Put(ctx context.Context, vals map[string]bool) error
}

type redisStore struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewRedisStore returns a Store on rdb, with keys "<prefix><name>".
func NewRedisStore(rdb redis.UniversalClient, prefix string) Store {
	return &redisStore{rdb: rdb, prefix: prefix}
}

func (s *redisStore) Get(ctx context.Context, names ...string) (map[string]bool, error) {
	// case F86: none
	ks := make([]string, len(names))
	for i, n := range names {
		ks[i] = s.prefix + n
	}
	vals, err := s.rdb.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(names))
	for i, v := range vals {
		out[names[i]] = v == "1"
	}
	return out, nil
}

func (s *redisStore) Put(ctx context.Context, vals map[string]bool) error {
	// case F87: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for n, on := range vals {
			v := "0"
			if on {
				v = "1"
			}
			p.Set(ctx, s.prefix+n, v, 0)
		}
		return nil
	})
	return err
}

// Overrides holds per-city flag overrides and rollouts.
type Overrides struct {
	rdb redis.UniversalClient
	env string
}

// NewOverrides returns Overrides for an environment ("prod", "staging").
func NewOverrides(rdb redis.UniversalClient, env string) *Overrides {
	return &Overrides{rdb: rdb, env: env}
}

// ForCity returns the city override and the default of a flag.
func (o *Overrides) ForCity(ctx context.Context, name, city string) ([]any, error) {
	// case F88: crossslot
	return o.rdb.MGet(ctx, "flag:"+name+":city:"+city, "flag:"+name+":default").Result()
}

// ForCityV2 returns the city override and the default of a flag.
func (o *Overrides) ForCityV2(ctx context.Context, name, city string) ([]any, error) {
	// case F89: none
	return o.rdb.MGet(ctx, "flag:{"+name+"}:city:"+city, "flag:{"+name+"}:default").Result()
}

func flagKey(env, name string) string { return fmt.Sprintf("ff:{%s}:{%s}", env, name) }

// Rollout enables a flag in the environment for pct percent of drivers.
func (o *Overrides) Rollout(ctx context.Context, name string, pct int) error {
	// case F90: doubletag, crossslot
	_, err := o.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, flagKey(o.env, name), "1", 0)
		p.Set(ctx, "rollout:{"+name+"}:pct", strconv.Itoa(pct), 0)
		return nil
	})
	return err
}

// RolloutV2 enables a flag in the environment for pct percent of drivers.
func (o *Overrides) RolloutV2(ctx context.Context, name string, pct int) error {
	// case F91: none
	tag := "ff:{" + o.env + ":" + name + "}"
	_, err := o.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, tag+":on", "1", 0)
		p.Set(ctx, tag+":pct", strconv.Itoa(pct), 0)
		return nil
	})
	return err
}
