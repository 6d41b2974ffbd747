// Package tagranks sorts a board's ids by weights under the prefix it is
// given: a pattern without a tag reads keys on any slot, unless the prefix
// is one. main gives it "{tr}", a tag: the pattern's keys are on the sorted key's slot.
package tagranks

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Ranks struct {
	rdb    redis.UniversalClient
	prefix string
}

func New(rdb redis.UniversalClient, prefix string) *Ranks { return &Ranks{rdb: rdb, prefix: prefix} }

func (r *Ranks) Top(ctx context.Context) []string {
	return r.rdb.Sort(ctx, r.prefix+":ids", &redis.Sort{By: r.prefix + ":w_*"}).Val()
}
