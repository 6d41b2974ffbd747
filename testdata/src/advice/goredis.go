// Package advice pins the fix clauses of findings over keys of two
// entities (two users' sets, two days' counters, two accounts), which
// never tell them to share one hash tag, beside keys of one entity, which
// are told the tag of the value they share; for every kind of command and
// every client.
package advice

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func friendsKey(u string) string { return "friends:" + u }

func uvKey(day string) string { return "uv:" + day }

// sets are two users' sets: the intersection is computed in the client,
// or the users are tagged with something both belong to.
func sets(ctx context.Context, rdb *redis.ClusterClient, dst, room, a, b string) {
	rdb.SInterStore(ctx, dst, friendsKey(a), friendsKey(b))                       // want `^SInterStore keys "friends:<a>" and "friends:<b>" .*; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.SInterStore(ctx, "mutual:"+a, friendsKey(a), friendsKey(b))               // want `^SInterStore keys "mutual:<a>" and "friends:<a>" .*; read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.SUnion(ctx, friendsKey(a), friendsKey(b))                                 // want `^SUnion keys "friends:<a>" and "friends:<b>" .*; read each key and compute the result in the client, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.SUnionStore(ctx, "friends:"+a+":all", friendsKey(a), "friends:"+a+":new") // want `^SUnionStore keys "friends:<a>:all" and "friends:<a>" .*; make a their hash tag, as in "friends:\{<a>\}:all"$`
	// The layout the fix describes: the users' sets tagged with the room
	// both are in, which neither check objects to.
	rdb.SInterStore(ctx, "room:{"+room+"}:mutual", "room:{"+room+"}:friends:"+a, "room:{"+room+"}:friends:"+b)
}

// days are two days' HyperLogLogs.
func days(ctx context.Context, rdb *redis.ClusterClient, month, day1, day2 string) {
	rdb.PFCount(ctx, uvKey(day1), uvKey(day2))                       // want `^PFCount keys "uv:<day1>" and "uv:<day2>" .*; copy each HyperLogLog \(GET, then SET\) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.PFMerge(ctx, "uv:week", uvKey(day1), uvKey(day2))            // want `^PFMerge keys "uv:week" and "uv:<day1>" .*; copy each HyperLogLog \(GET, then SET\) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.PFCount(ctx, "uv:"+day1+":web", "uv:"+day1+":app")           // want `^PFCount keys "uv:<day1>:web" and "uv:<day1>:app" .*; make day1 their hash tag, as in "uv:\{<day1>\}:web"$`
	rdb.PFCount(ctx, "uv:{"+month+"}:"+day1, "uv:{"+month+"}:"+day2) // the days tagged with their month
}

// moves are between two accounts, or from one entity to all of them.
func moves(ctx context.Context, rdb *redis.ClusterClient, from, to, c string) {
	rdb.Rename(ctx, "acct:{"+from+"}", "acct:{"+to+"}")             // want `^Rename keys "acct:\{<from>\}" and "acct:\{<to>\}" .*; move the data in the client \(read, write, then delete the source\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.SMove(ctx, "hot:global", "hot:cat:"+c, "x")                 // want `^SMove keys "hot:global" and "hot:cat:<c>" .*; move the data in the client \(read, write, then delete the source\), since the only tag both could share is a constant one, which puts every such key on one slot$`
	rdb.Rename(ctx, "acct:"+from+":draft", "acct:{"+from+"}:final") // want `^Rename keys "acct:<from>:draft" and "acct:\{<from>\}:final" .*; make from the hash tag of "acct:<from>:draft" too, as in "acct:\{<from>\}:draft"$`
}

// splittable commands are sent once per slot.
func independent(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, friendsKey(a), friendsKey(b))                // want `^MGet keys "friends:<a>" and "friends:<b>" .*; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.MGet(ctx, "user:1:a", "user:2:a")                      // want `^MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) .*; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.Del(ctx, "cart:"+a, "carts:open")                      // want `^Del keys "cart:<a>" and "carts:open" .*; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.MGet(ctx, "user:"+a+":profile", "user:"+a+":settings") // want `^MGet keys "user:<a>:profile" and "user:<a>:settings" .*; make a their hash tag, as in "user:\{<a>\}:profile"$`
}

// others wait, read streams or set all or none.
func others(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.BLPop(ctx, time.Second, "queue:"+a, "queue:"+b)                                         // want `^BLPop keys "queue:<a>" and "queue:<b>" .*; wait on each slot's keys with a call of its own, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"events:" + a, "events:" + b, "0", "0"}}) // want `^XRead keys "events:<a>" and "events:<b>" .*; wait on each slot's keys with a call of its own, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.MSetNX(ctx, "lock:"+a, 1, "lock:"+b, 1)                                                 // want `^MSetNX keys "lock:<a>" and "lock:<b>" .*; set each slot's keys with a call of its own, deleting the ones set when a later call finds a key taken, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.Eval(ctx, "return 1", []string{"acct:" + a, "acct:" + b})                               // want `^Eval keys "acct:<a>" and "acct:<b>" .*; run the script once per slot from the client, with that slot's keys \(each run is atomic on its own slot only\), or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.Eval(ctx, "return 1", []string{"acct:" + a + ":bal", "acct:" + a + ":log"})             // want `^Eval keys "acct:<a>:bal" and "acct:<a>:log" .*; make a their hash tag, as in "acct:\{<a>\}:bal"$`
}

// transactions over two accounts cannot be atomic across slots.
func transactions(ctx context.Context, rdb *redis.ClusterClient, from, to string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "bal:{"+from+"}")
		p.Incr(ctx, "bal:{"+to+"}") // want `^TxPipelined keys "bal:\{<from>\}" \(Incr\) and "bal:\{<to>\}" \(Incr\) .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "bal:"+from+":cur")
		p.Incr(ctx, "bal:"+from+":prev") // want `^TxPipelined keys "bal:<from>:cur" \(Incr\) and "bal:<from>:prev" \(Incr\) .*; make from their hash tag, as in "bal:\{<from>\}:cur"$`
		return nil
	})
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "bal:{"+to+"}") // want `^Watch keys "bal:\{<from>\}" and Get key "bal:\{<to>\}" .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
		return nil
	}, "bal:{"+from+"}")
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "bal:"+from+":prev") // want `^Watch keys "bal:<from>:cur" and Get key "bal:<from>:prev" .*; make from their hash tag, as in "bal:\{<from>\}:cur"$`
		return nil
	}, "bal:"+from+":cur")
	rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, "bal:{"+from+"}", "bal:{"+to+"}") // want `^Watch keys "bal:\{<from>\}" and "bal:\{<to>\}" .*; co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox \(atomicity cannot hold across slots\)$`
}

// channels of two rooms are subscribed to once per slot.
func channels(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.SSubscribe(ctx, "room:"+a, "room:"+b)                   // want `^SSubscribe channels "room:<a>" and "room:<b>" .*; subscribe once per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.SSubscribe(ctx, "room:"+a+":chat", "room:"+a+":typing") // want `^SSubscribe channels "room:<a>:chat" and "room:<a>:typing" .*; make a their hash tag, as in "room:\{<a>\}:chat"$`
}

// family keys are built per element of an input.
func family(ctx context.Context, rdb *redis.ClusterClient, users []string) {
	var keys []string
	for _, u := range users {
		keys = append(keys, friendsKey(u))
	}
	rdb.SUnion(ctx, keys...) // want `^SUnion keys "friends:<users\[i\]>" for two different elements of users .*; read each key and compute the result in the client, or tag every key with an entity they all belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	rdb.MGet(ctx, keys...)   // want `^MGet keys "friends:<users\[i\]>" for two different elements of users .*; group the keys by slot \(slotcalc\.Slot\) and send one call per slot$`
}
