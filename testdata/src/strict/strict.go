// Package strict runs with -strict: commands and transactions whose keys are
// not proved to share a slot are reported as unprovable.
package strict

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

func strict(ctx context.Context, rdb *redis.ClusterClient, a, b int, name string, input []string) {
	rdb.MGet(ctx, fmt.Sprintf("user:{%d}:a", a), fmt.Sprintf("user:{%d}:b", b))                 // want `MGet keys "user:\{<a>\}:a" and "user:\{<b>\}:b" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	rdb.MGet(ctx, fmt.Sprintf("user:{%d}:a", len(name)), fmt.Sprintf("user:{%d}:b", len(name))) // want `MGet keys are not proved to share a hash slot: "user:\{<len\(name\)>\}:a" and "user:\{<len\(name\)>\}:b" hash different values`
	rdb.MGet(ctx, fmt.Sprintf("user:{%d}:a", a), fmt.Sprintf("user:{%d}:b", a))
	rdb.MGet(ctx, "{x}:1", "{x}:2")
	rdb.MGet(ctx, "x:1", "x:2")                                             // want `MGet keys "x:1" \(slot \d+\) and "x:2" \(slot \d+\) are on different hash slots`
	rdb.MGet(ctx, input...)                                                 // want `MGet keys are not proved to share a hash slot: they come from input, which is not read here`
	rdb.MGet(ctx, "{"+name+"}:a", "{"+name+"}:b")                           // want `MGet keys are not proved to share a hash slot: "\{<name>\}:a" may hold a brace, so its hash tag is not known`
	rdb.MGet(ctx, fmt.Sprintf("{%x}:a", name), fmt.Sprintf("{%x}:b", name)) // want `MGet keys are not proved to share a hash slot: the hash tag of "\{<name>\}:a" may be empty`
	rdb.MGet(ctx, fmt.Sprintf("{%d}:a", a), fmt.Sprintf("{%x}:b", name))    // want `MGet keys "\{<a>\}:a" and "\{<name>\}:b" are on different hash slots for all but about 1 in 16384 pairs of different values of a and name`
	rdb.Get(ctx, name)                                                      // one key: nothing to prove
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("visits:{%d}", a))
		p.Incr(ctx, fmt.Sprintf("logins:{%d}", b)) // want `TxPipelined keys "visits:\{<a>\}" \(Incr\) and "logins:\{<b>\}" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("visits:{%s}", strings.ToUpper(name)))
		p.Incr(ctx, fmt.Sprintf("logins:{%s}", strings.ToUpper(name))) // want `TxPipelined keys are not proved to share a hash slot: "visits:\{<strings.ToUpper\(name\)>\}" may hold a brace, so its hash tag is not known`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("visits:{%d}", a))
		p.Incr(ctx, fmt.Sprintf("logins:{%d}", a))
		return nil
	})
	pair(ctx, rdb, "{p}1", "{p}2")
}

// pair cannot prove its callers' keys share a slot: judged here, once.
func pair(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b) // want `MGet keys are not proved to share a hash slot: "<a>" may hold a brace, so its hash tag is not known`
}

func delAll(ctx context.Context, rdb *redis.ClusterClient, keys ...string) {
	rdb.Del(ctx, keys...) // want `Del keys are not proved to share a hash slot: they come from keys, which is not read here`
}

func fromCall(ctx context.Context, rdb *redis.ClusterClient, load func() []string) {
	rdb.Del(ctx, load()...) // want `Del keys are not proved to share a hash slot: they come from load\(\), which is not read here`
}

// One key value is on one slot, whatever it holds: a transaction whose
// every command uses it is proved; two values are not.
func oneKey(ctx context.Context, rdb *redis.ClusterClient, key, other string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		p.Expire(ctx, key, 0)
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		p.Expire(ctx, other, 0) // want `TxPipelined keys are not proved to share a hash slot: "<key>" may hold a brace, so its hash tag is not known`
		return nil
	})
	rdb.MGet(ctx, "lock:"+key, "lock:"+key)
}
