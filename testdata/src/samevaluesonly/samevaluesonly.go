// Package samevaluesonly pins -same-values-only: keys of two different
// values, and keys that start with a value that may hold a tag, are left
// out; keys that hash the same values are reported as by default.
package samevaluesonly

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

type store struct {
	rdb  *redis.ClusterClient
	name string
}

func newStore(rdb *redis.ClusterClient, name string) *store { return &store{rdb: rdb, name: name} }

func (s *store) calls(ctx context.Context, req map[string]string, n int64) {
	user, order := req["user"], req["order"]
	s.rdb.Rename(ctx, "cart:"+user, "order:"+order)                                 // two values: left out
	s.rdb.MGet(ctx, s.name, s.name+":c")                                            // a leading value: left out
	s.rdb.MGet(ctx, "bal:"+user+":cur", "bal:"+user+":prev")                        // want `MGet keys "bal:<user>:cur" and "bal:<user>:prev" are on different hash slots for all but about 1 in 16384 values of user \(assuming user holds no brace\)`
	s.rdb.MGet(ctx, "n:"+strconv.FormatInt(n, 10), "n:"+strconv.FormatInt(n-1, 10)) // want `for all but about 1 in 16384 values of`
}

// Two parameters are two values: left out too.
func (s *store) transfer(ctx context.Context, from, to string) {
	s.rdb.Rename(ctx, "acct:"+from, "acct:"+to) // two parameters: left out
}
