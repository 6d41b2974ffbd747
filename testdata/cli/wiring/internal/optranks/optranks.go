// Package optranks is ranks configured by an options struct: the prefix is
// a field of the constructor's parameter. main gives it "ro".
package optranks

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Options struct {
	Prefix string
}

type Ranks struct {
	rdb    redis.UniversalClient
	prefix string
}

func New(rdb redis.UniversalClient, opts Options) *Ranks {
	return &Ranks{rdb: rdb, prefix: opts.Prefix}
}

func (r *Ranks) Top(ctx context.Context) []string {
	return r.rdb.Sort(ctx, r.prefix+":ids", &redis.Sort{By: r.prefix + ":w_*"}).Val() // reported: sortpattern
}
