package values

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// Key lists built in a loop and handed over in a client's own shapes: an
// options struct's field (ZStore.Keys) and redigo's Args.Add.

func storeKeysFromLoop(ctx context.Context, rdb *goredis.ClusterClient, u string, artists ...string) {
	srcs := make([]string, len(artists))
	for i, a := range artists {
		srcs[i] = "artist:{" + a + "}:posts"
	}
	rdb.ZInterStore(ctx, "user:{"+u+"}:feed", &goredis.ZStore{Keys: srcs, Aggregate: "MAX"}) // want `ZInterStore keys "user:\{<u>\}:feed" and "artist:\{<artists\[i\]>\}:posts" are on different hash slots`
	own := make([]string, len(artists))
	for i, a := range artists {
		own[i] = "user:{" + u + "}:from:" + a
	}
	rdb.ZInterStore(ctx, "user:{"+u+"}:feed", &goredis.ZStore{Keys: own}) // one user's tag
}

func redigoArgsAdd(codes ...string) {
	conn := cluster.Get()
	args := redigo.Args{}
	for _, c := range codes {
		args = args.Add("promo:{" + c + "}:label")
	}
	conn.Do("MGET", args...) // want `MGET keys "promo:\{<codes\[i\]>\}:label" for two different elements of codes are on different hash slots`
	one := redigo.Args{}
	for _, c := range codes {
		one = one.Add("promo:{all}:" + c)
	}
	conn.Do("MGET", one...) // one constant tag
}

// Key, value pairs appended in a loop: the keys are a family.
func pairsFromLoop(ctx context.Context, rdb *goredis.ClusterClient, owner string, sections ...string) {
	pairs := make([]any, 0, 2*len(sections))
	for _, s := range sections {
		pairs = append(pairs, "lock:"+s, owner)
	}
	rdb.MSetNX(ctx, pairs...) // want `MSetNX keys "lock:<sections\[i\]>" for two different elements of sections are on different hash slots`
	tagged := make([]any, 0, 2*len(sections))
	for _, s := range sections {
		tagged = append(tagged, "lock:{"+owner+"}:"+s, owner)
	}
	rdb.MSet(ctx, tagged...) // one owner's tag
	empty := make([]any, 0, 2*len(sections))
	for _, s := range sections {
		empty = append(empty, "map:{}:lock:"+s, owner)
	}
	rdb.MSet(ctx, empty...) // want `MSet key "map:\{\}:lock:<sections\[i\]>" has an empty hash tag` `MSet keys "map:\{\}:lock:<sections\[i\]>" for two different elements`
}
