// Package defranks is optranks whose constructor fills in a default for
// another option: SSA keeps opts in a local variable, whose prefix field is
// still the parameter's. main gives it "rd".
package defranks

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
	if opts.Limit == 0 {
		opts.Limit = 10
	}
	return &Ranks{rdb: rdb, prefix: opts.Prefix, limit: opts.Limit}
}

func (r *Ranks) Top(ctx context.Context) []string {
	return r.rdb.Sort(ctx, r.prefix+":ids", &redis.Sort{By: r.prefix + ":w_*", Count: int64(r.limit)}).Val() // reported: sortpattern
}
