package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

// A slice a closure appends to, read after the closure's calls: each call's
// element, with the call's arguments.
func closureAppends(ctx context.Context, rdb *goredis.ClusterClient, a, b string) {
	var ks []string
	add := func(id, f string) { ks = append(ks, entityKey(id, f)) }
	add(a, "x")
	add(b, "y")
	rdb.MGet(ctx, ks...) // want `MGet keys "user:<a>:x" and "user:<b>:y" are on different hash slots`
}

func closureAppendsTagged(ctx context.Context, rdb *goredis.ClusterClient, a string) {
	var ks []string
	add := func(id, f string) { ks = append(ks, "user:{"+id+"}:"+f) }
	add(a, "x")
	add(a, "y")
	rdb.MGet(ctx, ks...)
}

// Near-misses: a closure called in a loop appends an unknown number of
// times, and one passed on may run anywhere; neither is read.
func closureInLoop(ctx context.Context, rdb *goredis.ClusterClient, ids []string) {
	var ks []string
	add := func(id string) { ks = append(ks, "user:"+id) }
	for _, id := range ids {
		add(id)
	}
	rdb.MGet(ctx, ks...)
}

func closurePassedOn(ctx context.Context, rdb *goredis.ClusterClient, each func(func(string))) {
	var ks []string
	add := func(id string) { ks = append(ks, "user:"+id) }
	each(add)
	rdb.MGet(ctx, ks...)
}
