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

// A family, then keys appended after the loop: a script's KEYS (through a
// wrapper too) and a command's.
var holdAll = goredis.NewScript(`for i = 1, #KEYS do redis.call('SET', KEYS[i], ARGV[1]) end`)

func runHolds(ctx context.Context, rdb *goredis.ClusterClient, keys []string, u string) error {
	return holdAll.Run(ctx, rdb, keys, u).Err()
}

func familyThenTail(ctx context.Context, rdb *goredis.ClusterClient, ev, u string, seats ...string) {
	keys := make([]string, 0, len(seats)+1)
	for _, s := range seats {
		keys = append(keys, "seat:"+ev+":"+s)
	}
	keys = append(keys, "event:{"+ev+"}:holds:"+u)
	rdb.Del(ctx, keys...)       // want `Del keys "event:\{<ev>\}:holds:<u>" and "seat:<ev>:<seats\[i\]>" are on different hash slots`
	runHolds(ctx, rdb, keys, u) // want `Run keys "event:\{<ev>\}:holds:<u>" and "seat:<ev>:<seats\[i\]>" are on different hash slots`
	tagged := make([]string, 0, len(seats)+1)
	for _, s := range seats {
		tagged = append(tagged, "event:{"+ev+"}:hold:"+s)
	}
	tagged = append(tagged, "event:{"+ev+"}:holds:"+u)
	rdb.Del(ctx, tagged...)       // one event's tag
	runHolds(ctx, rdb, tagged, u) // one event's tag
}

// XREAD's streams appended in one loop, an ID for each in another.
func streamsThenIDs(ctx context.Context, rdb *goredis.ClusterClient, user string, streams []string) {
	var args []string
	for _, s := range streams {
		args = append(args, "events:"+s)
	}
	for range streams {
		args = append(args, "0")
	}
	rdb.XRead(ctx, &goredis.XReadArgs{Streams: args}) // want `XRead keys "events:<streams\[i\]>" for two different elements of streams are on different hash slots`
	var own []string
	for _, s := range streams {
		own = append(own, "events:{"+user+"}:"+s)
	}
	for range streams {
		own = append(own, "$")
	}
	rdb.XRead(ctx, &goredis.XReadArgs{Streams: own}) // one user's tag
}
