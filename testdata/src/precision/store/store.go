// Package store holds wrappers whose client is a parameter or a field, for
// callers in another package (and their tests) to pass single-node or
// cluster clients.
package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"

// SetBatch runs a script on the keys it is given, on the client it is given.
func SetBatch(ctx context.Context, s redis.Scripter, keys []string) error { // want SetBatch:`sink EvalSha\(p3...\) at store.go:16`
	return s.EvalSha(ctx, sha, keys).Err()
}

var bump = redis.NewScript("return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])")

// RunBump runs a Script on the client it is given: the client is Run's c.
func RunBump(ctx context.Context, c redis.Scripter, a, b string) error { // want RunBump:`sink Run\(p3, p4\) at store.go:23`
	return bump.Run(ctx, c, []string{a, b}).Err()
}

// NewSingle returns a client of one node, whatever its interface says.
func NewSingle(addr string) redis.UniversalClient { // want NewSingle:`returns a single-node client`
	return redis.NewClient(&redis.Options{Addr: addr})
}

// Cache is a project's own client type; New gives it one node.
type Cache struct {
	rdb redis.UniversalClient
}

func New(addr string) *Cache { return &Cache{rdb: redis.NewClient(&redis.Options{Addr: addr})} }

// GetMany reads keys on the cache's own client: one node, never reported.
func (c *Cache) GetMany(ctx context.Context, keys ...string) error {
	return c.rdb.MGet(ctx, keys...).Err()
}

// Shared is built on any client it is given.
type Shared struct {
	rdb redis.UniversalClient
}

func NewShared(rdb redis.UniversalClient) *Shared { return &Shared{rdb: rdb} }

// GetMany reads keys on a client the caller chose.
func (s *Shared) GetMany(ctx context.Context, keys ...string) error { // want GetMany:`sink MGet\(p3...\) at store.go:52`
	return s.rdb.MGet(ctx, keys...).Err()
}

// Meta runs transactions on its client, a single node.
type Meta struct {
	rdb *redis.Client
}

// Txn runs f on the Tx of its one node.
func (m *Meta) Txn(ctx context.Context, f func(*redis.Tx) error, keys ...string) error { // want Txn:`runs p3 on one node`
	return m.rdb.Watch(ctx, f, keys...)
}

// Any runs transactions on a client the caller chose.
type Any struct {
	rdb redis.UniversalClient
}

func (m *Any) Txn(ctx context.Context, f func(*redis.Tx) error, keys ...string) error { // want Txn:`sink Watch\(p4...\)`
	return m.rdb.Watch(ctx, f, keys...)
}
