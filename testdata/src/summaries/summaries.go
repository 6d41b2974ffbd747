// Package summaries pins what the reading says a function does with keys,
// in terms of its parameters (the facts it exports): key builders, the
// wrappers whose parameters reach a multi-key command, the commands queued
// on a pipeline parameter, the clients returned.
package summaries

import (
	"context"

	"github.com/redis/go-redis/v9"

	"summaries/keys"
)

func PairOf(id int64) []string { // want PairOf:`keys \["user:"\+%d\(p1\)\+":profile", "user:\{x\}:settings"\]`
	return []string{keys.Profile(id), keys.Tagged("x")}
}

func Move(ctx context.Context, rdb redis.UniversalClient, from, to string) error { // want Move:`sink Rename\(p3, p4\) at summaries.go:20`
	return rdb.Rename(ctx, from, to).Err()
}

func Both(ctx context.Context, rdb redis.UniversalClient, id int64) { // want Both:`sink MGet\("user:"\+%d\(p3\)\+":profile", "user:\{x\}:settings"\) at summaries.go:24`
	rdb.MGet(ctx, keys.Profile(id), keys.Tagged("x"))
}

func Queue(ctx context.Context, pipe redis.Pipeliner, id string) { // want Queue:`queues p2.Incr\("user:\{"\+p3\+"\}:settings"\)`
	pipe.Incr(ctx, keys.Tagged(id))
}

func NewLocal() redis.UniversalClient { // want NewLocal:`returns a single-node client`
	return redis.NewClient(&redis.Options{})
}

func single(ctx context.Context, rdb redis.UniversalClient, k string) {
	rdb.Get(ctx, k) // one key: nothing for callers to judge
}
