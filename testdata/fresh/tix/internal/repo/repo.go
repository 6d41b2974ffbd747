// Package repo is our generic JSON repository over Redis: one string key per
// entity, built by a keyspace.Family.
package repo

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// ErrNotFound is returned when an entity has no key.
var ErrNotFound = errors.New("repo: not found")

// Options configure a Repo.
type Options struct {
	TTL time.Duration
	// Tagged stores entities under Family.Tag instead of Family.Key.
	Tagged bool
}

// Repo stores values of type V under ids of type K.
type Repo[K keyspace.ID, V any] struct {
	rdb  redis.UniversalClient
	fam  keyspace.Family[K]
	opts Options
}

// New returns a repository of one key family.
func New[K keyspace.ID, V any](rdb redis.UniversalClient, fam keyspace.Family[K], opts Options) *Repo[K, V] {
	return &Repo[K, V]{rdb: rdb, fam: fam, opts: opts}
}

func (r *Repo[K, V]) key(id K) string {
	if r.opts.Tagged {
		return r.fam.Tag(id)
	}
	return r.fam.Key(id)
}

// Get loads one entity.
func (r *Repo[K, V]) Get(ctx context.Context, id K) (V, error) {
	var v V
	b, err := r.rdb.Get(ctx, r.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return v, ErrNotFound
	}
	if err != nil {
		return v, err
	}
	return v, json.Unmarshal(b, &v)
}

// Put stores one entity.
func (r *Repo[K, V]) Put(ctx context.Context, id K, v V) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return r.rdb.Set(ctx, r.key(id), b, r.opts.TTL).Err()
}

// GetMany loads several entities in one round trip. Missing ones are zero.
func (r *Repo[K, V]) GetMany(ctx context.Context, ids ...K) ([]V, error) {
	// case T1: crossslot
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, r.key(id))
	}
	vals, err := r.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]V, len(ids))
	for i, raw := range vals {
		if s, ok := raw.(string); ok {
			if err := json.Unmarshal([]byte(s), &out[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// All streams several entities, pipelining one GET per id. Unlike GetMany it
// works whatever slots the ids land on.
func (r *Repo[K, V]) All(ctx context.Context, ids []K) iter.Seq2[K, V] {
	// case T2: none
	return func(yield func(K, V) bool) {
		cmds := make([]*redis.StringCmd, len(ids))
		_, _ = r.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, id := range ids {
				cmds[i] = p.Get(ctx, r.key(id))
			}
			return nil
		})
		for i, c := range cmds {
			b, err := c.Bytes()
			if err != nil {
				continue
			}
			var v V
			if json.Unmarshal(b, &v) != nil {
				continue
			}
			if !yield(ids[i], v) {
				return
			}
		}
	}
}

// PutMany stores several entities atomically.
func (r *Repo[K, V]) PutMany(ctx context.Context, items map[K]V) error {
	// case T3: crossslot
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for id, v := range items {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			p.Set(ctx, r.key(id), b, r.opts.TTL)
		}
		return nil
	})
	return err
}

// DeleteMany removes entities, one pipelined DEL per key.
func (r *Repo[K, V]) DeleteMany(ctx context.Context, ids ...K) error {
	// case T4: none
	_, err := r.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.Del(ctx, r.key(id))
		}
		return nil
	})
	return err
}

// Purge removes entities with a single DEL.
func (r *Repo[K, V]) Purge(ctx context.Context, ids ...K) (int64, error) {
	// case T5: crossslot
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = r.key(id)
	}
	return r.rdb.Del(ctx, keys...).Result()
}
