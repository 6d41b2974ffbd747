// Package prefranks is defranks whose constructor defaults the prefix itself:
// the prefix is then not the parameter's alone, and the pattern is left
// undecided. main gives it "rp".
package prefranks

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Options struct {
	Prefix string
	Limit  int
}

type Ranks struct {
	rdb    redis.UniversalClient
	prefix string
	limit  int
}

func New(rdb redis.UniversalClient, opts Options) *Ranks {
	if opts.Prefix == "" {
		opts.Prefix = "ranks"
	}
	return &Ranks{rdb: rdb, prefix: opts.Prefix, limit: opts.Limit}
}

func (r *Ranks) Top(ctx context.Context) []string {
	return r.rdb.Sort(ctx, r.prefix+":ids", &redis.Sort{By: r.prefix + ":w_*", Count: int64(r.limit)}).Val()
}
