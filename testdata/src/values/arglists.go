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
