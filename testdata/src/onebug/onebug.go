// Package onebug pins one finding per bug: what several events show of one
// bug is reported once, at the place to fix, the others its related
// positions (TestOneBugOneFinding counts them).
package onebug

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// transfer watches two accounts' keys: the WATCH, the callback's reads and
// the transaction inside it all cross, and the WATCH is where it is fixed.
func transfer(ctx context.Context, rdb *redis.ClusterClient, from, to string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "acct:"+from)
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "acct:"+from, 0, 0)
			p.Incr(ctx, "acct:"+to)
			return nil
		})
		return err
	}, "acct:"+from, "acct:"+to) // want `Watch keys "acct:<from>" and "acct:<to>" are on different hash slots`
}

// reserve watches one key and writes another in the callback's transaction:
// the callback is where it is reported, the transaction its related.
func reserve(ctx context.Context, rdb *redis.ClusterClient, sku, order string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "stock:"+sku)
			p.Incr(ctx, "reservation:"+order) // want `Watch keys "stock:<sku>" and Incr key "reservation:<order>" are on different hash slots`
			return nil
		})
		return err
	}, "stock:"+sku)
}

// merge queues a SUNIONSTORE across slots: the command is the bug, and the
// transaction's crossing is the same one.
func merge(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SUnionStore(ctx, "wish:"+a, "wish:"+a, "wish:"+b) // want `SUnionStore keys "wish:<a>" and "wish:<b>" are on different hash slots`
		p.Del(ctx, "wish:"+b)
		return nil
	})
}

// twoCommands: two commands that each cross are two bugs, in one
// transaction too (the transaction's crossing joins the one it is reported
// at, the later).
func twoCommands(ctx context.Context, rdb *redis.ClusterClient) {
	pipe := rdb.TxPipeline()
	pipe.MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	pipe.Del(ctx, "c", "d")  // want `Del keys "c" \(slot 7365\) and "d" \(slot 11298\)`
	pipe.Exec(ctx)
}

// emptyTags: one template's empty tag in two keys of one MGET is one bug.
func emptyTags(ctx context.Context, rdb *redis.ClusterClient, game string) {
	rdb.MGet(ctx, "lb:{}:"+game+":rank", "lb:{}:"+game+":score") // want `MGet key "lb:\{\}:<game>:rank" has an empty hash tag` `MGet keys "lb:\{\}:<game>:rank" and "lb:\{\}:<game>:score" are on different hash slots`
}

// twoCalls: the same empty tag in two calls is reported at each: a user
// may fix one call and not the other.
func twoCalls(ctx context.Context, rdb *redis.ClusterClient, game string) {
	rdb.Get(ctx, "lb:{}:"+game+":rank")  // want `Get key "lb:\{\}:<game>:rank" has an empty hash tag`
	rdb.Get(ctx, "lb:{}:"+game+":score") // want `Get key "lb:\{\}:<game>:score" has an empty hash tag`
}

// sorted: SORT's BY and GET patterns off the sorted key are one finding.
func sorted(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Sort(ctx, "players", &redis.Sort{By: "player:*:elo", Get: []string{"player:*:name"}}) // want `SORT BY "player:\*:elo" reads keys on any slot`
}

// separate: two transactions of two functions are two bugs, though their
// keys are built alike.
func separate(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "n:"+a)
		p.Incr(ctx, "n:"+b) // want `TxPipelined keys "n:<a>" \(Incr\) and "n:<b>" \(Incr\) are on different hash slots`
		return nil
	})
}

func separateToo(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "n:"+a)
		p.Incr(ctx, "n:"+b) // want `TxPipelined keys "n:<a>" \(Incr\) and "n:<b>" \(Incr\) are on different hash slots`
		return nil
	})
}

// sameKeyTwice: one malformed key sent by two commands is one bug, reported
// at the first.
func sameKeyTwice(ctx context.Context, rdb *redis.ClusterClient, user string) {
	k := "history:{" + user + ":list"
	rdb.Set(ctx, k, "x", 0) // want `Set key "history:\{<user>:list" has a '\{' with no '\}' after it`
	rdb.Expire(ctx, k, 0)
}

// sameKeyElsewhere: the same key in another function is its own finding.
func sameKeyElsewhere(ctx context.Context, rdb *redis.ClusterClient, user string) {
	rdb.Del(ctx, "history:{"+user+":list") // want `Del key "history:\{<user>:list" has a '\{' with no '\}' after it`
}

// A script whose constant key is off its declared keys' slot is one bug,
// whichever call runs it and whichever check each call reports it under.
var bump = redis.NewScript("redis.call('INCR', KEYS[1]); return redis.call('INCR', 'stats:global')") // want `Run script's INCR key "stats:global" and the declared key "user:<user>" are on different hash slots`

func bumpUser(ctx context.Context, rdb *redis.ClusterClient, user string) {
	bump.Run(ctx, rdb, []string{"user:" + user})
}

func bumpKey(ctx context.Context, rdb *redis.ClusterClient, key string) {
	bump.Run(ctx, rdb, []string{key})
}
