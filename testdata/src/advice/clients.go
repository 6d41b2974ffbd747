package advice

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

var transfer = rueidis.NewLuaScript("return 1")

// rueidisBuilt commands of two users panic in the cluster client's
// builder; their fix is the same as go-redis's.
func rueidisBuilt(ctx context.Context, c rueidis.Client, a, b string) {
	c.Do(ctx, c.B().Sunionstore().Destination("friends:"+a+":all").Key(friendsKey(a), friendsKey(b)).Build()) // want `^SUNIONSTORE keys "friends:<a>:all" and "friends:<a>" .*; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do(ctx, c.B().Arbitrary("SINTERSTORE").Keys("mutual:"+a, friendsKey(a), friendsKey(b)).Build())         // want `^SINTERSTORE keys "mutual:<a>" and "friends:<a>" .*; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do(ctx, c.B().Arbitrary("PFCOUNT").Keys(uvKey(a), uvKey(b)).Build())                                    // want `^PFCOUNT keys "uv:<a>" and "uv:<b>" .*; copy each HyperLogLog \(GET, then SET\) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do(ctx, c.B().Mget().Key(friendsKey(a), friendsKey(b)).Build())                                         // want `^MGET keys "friends:<a>" and "friends:<b>" .*; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	c.Do(ctx, c.B().Rename().Key("acct:"+a).Newkey("acct:"+b).Build())                                        // want `^RENAME keys "acct:<a>" and "acct:<b>" .*; move the data in the client \(read, write, then delete the source\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do(ctx, c.B().Rename().Key("acct:"+a).Newkey("acct:"+a+":old").Build())                                 // want `^RENAME keys "acct:<a>" and "acct:<a>:old" .*; make a their hash tag, as in "acct:\{<a>\}"$`
	transfer.Exec(ctx, c, []string{"acct:{" + a + "}", "acct:{" + b + "}"}, nil)                              // want `^Lua\.Exec keys "acct:\{<a>\}" and "acct:\{<b>\}" .*; run the script once per slot from the client, with that slot's keys \(each run is atomic on its own slot only\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("acct:{"+a+"}").Value("1").Build(),
		c.B().Incr().Key("acct:{"+b+"}").Build(), // want `^DoMulti keys "acct:\{<a>\}" \(SET\) and "acct:\{<b>\}" \(INCR\) .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
		c.B().Exec().Build(),
	)
}

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

var moveScript = redis.NewScript(2, "return 1")

// redigoLines over redisc: command lines, scripts and MULTI/EXEC.
func redigoLines(a, b string) {
	c := cluster.Get()
	defer c.Close()
	c.Do("SINTERSTORE", "mutual:"+a, friendsKey(a), friendsKey(b)) // want `^SINTERSTORE keys "mutual:<a>" and "friends:<a>" .*; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do("PFMERGE", "uv:week", uvKey(a), uvKey(b))                 // want `^PFMERGE keys "uv:week" and "uv:<a>" .*; copy each HyperLogLog \(GET, then SET\) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Do("MGET", "user:1:a", "user:2:a")                           // want `^MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) .*; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	c.Do("RENAME", "room:"+a+":log", "room:"+a+":log:old")         // want `^RENAME keys "room:<a>:log" and "room:<a>:log:old" .*; make a their hash tag, as in "room:\{<a>\}:log"$`
	moveScript.Do(c, "acct:"+a, "acct:"+b)                         // want `^Script\.Do keys "acct:<a>" and "acct:<b>" .*; run the script once per slot from the client, with that slot's keys \(each run is atomic on its own slot only\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	c.Send("MULTI")
	c.Send("INCR", "acct:"+a)
	c.Send("DECR", "acct:"+b) // want `^MULTI/EXEC keys "acct:<a>" \(INCR\) and "acct:<b>" \(DECR\) .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
	c.Do("EXEC")
}

// glideCalls: GLIDE refuses, splits or batches.
func glideCalls(ctx context.Context, g *glide.ClusterClient, a, b, c string) {
	g.SInter(ctx, []string{friendsKey(a), friendsKey(b)})                                                                                       // want `^SInter keys "friends:<a>" and "friends:<b>" .*; read each key and compute the result in the client, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	g.PfCount(ctx, []string{uvKey(a), uvKey(b)})                                                                                                // want `^PfCount keys "uv:<a>" and "uv:<b>" .*; copy each HyperLogLog \(GET, then SET\) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	g.MSetNX(ctx, map[string]string{"hold:" + a: "x", "hold:" + b: "x"})                                                                        // want `^MSetNX keys "hold:<a>" and "hold:<b>" .*; set each slot's keys with a call of its own, deleting the ones set when a later call finds a key taken, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	g.InvokeScriptWithOptions(ctx, *options.NewScript("return 1"), *options.NewScriptOptions().WithKeys([]string{"hold:{" + a + "}", "holds"})) // want `^InvokeScriptWithOptions keys "hold:\{<a>\}" and "holds" .*; run the script once per slot from the client, with that slot's keys \(each run is atomic on its own slot only\), since the only tag both could share is a constant one, which puts every such key on one slot$`
	g.Del(ctx, []string{"bal:" + a + ":cur", "bal:" + a + ":prev"})                                                                             // want `^Del keys "bal:<a>:cur" and "bal:<a>:prev" .*; if the write must be atomic, make a their hash tag, as in "bal:\{<a>\}:cur"$`
	g.Del(ctx, []string{"seat:" + a + ":" + b, "seat:" + a + ":" + c})                                                                          // want `^Del keys "seat:<a>:<b>" and "seat:<a>:<c>" .*; if the write must be atomic, co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
	tx := pipeline.NewClusterBatch(true)
	tx.Set("bal:{"+a+"}", "1")
	tx.Incr("bal:{" + b + "}") // want `^ClusterBatch keys "bal:\{<a>\}" \(Set\) and "bal:\{<b>\}" \(Incr\) .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
	g.Exec(ctx, *tx, true)
	barred := pipeline.NewClusterBatch(true)
	barred.Del([]string{"bal:{" + a + "}", "bal:{" + b + "}"}) // want `^Del keys "bal:\{<a>\}" and "bal:\{<b>\}" .*; send it outside the atomic batch, where GLIDE splits it per slot$`
	g.Exec(ctx, *barred, true)
	one := pipeline.NewClusterBatch(true)
	one.Del([]string{"bal:" + a + ":cur", "bal:" + a + ":prev"}) // want `^Del keys "bal:<a>:cur" and "bal:<a>:prev" .*; send it outside the atomic batch, where GLIDE splits it per slot, or make a their hash tag, as in "bal:\{<a>\}:cur"$`
	g.Exec(ctx, *one, true)
	g.Watch(ctx, []string{"stock:" + a})
	watched := pipeline.NewClusterBatch(true)
	watched.Set("order:"+a, "1") // want `^Watch keys "stock:<a>" and Set key "order:<a>" .*; make a their hash tag, as in "stock:\{<a>\}"$`
	g.Exec(ctx, *watched, true)
	g.Watch(ctx, []string{"stock:{" + a + "}"})
	other := pipeline.NewClusterBatch(true)
	other.Set("stock:{"+b+"}", "1") // want `^Watch keys "stock:\{<a>\}" and Set key "stock:\{<b>\}" .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
	g.Exec(ctx, *other, true)
}

// ringCalls: a Ring shards by hash tag, and keys of two entities are never
// told to share one there either.
func ringCalls(ctx context.Context, a, b string) {
	ring := goredis.NewRing(&goredis.RingOptions{Addrs: map[string]string{"shard1": ":7001", "shard2": ":7002"}})
	ring.Rename(ctx, "sess:"+a, "sess:"+b)         // want `^Rename keys "sess:<a>" and "sess:<b>" .*; move the data in the client \(read, write, then delete the source\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one shard$`
	ring.MGet(ctx, "sess:"+a, "sess:"+b)           // want `^MGet keys "sess:<a>" and "sess:<b>" .*; send one command per key, since one hash tag for every such key would put them all on one shard$`
	ring.Rename(ctx, "sess:"+a, "sess:"+a+":old")  // want `^Rename keys "sess:<a>" and "sess:<a>:old" .*; make a their hash tag, as in "sess:\{<a>\}", or send one command per key$`
	ring.MGet(ctx, "sess:"+a+":a", "sess:"+a+":b") // want `^MGet keys "sess:<a>:a" and "sess:<a>:b" .*; make a their hash tag, as in "sess:\{<a>\}:a", or send one command per key$`
}
