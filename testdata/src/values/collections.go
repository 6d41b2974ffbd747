package values

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"values/keys"

	"github.com/gomodule/redigo/redis"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// Collections however they are built: a loop over an input adds one key per
// element, and the command fails whenever the input holds two elements
// whose keys are on different slots.
func collections(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, skus, names []string, user string) {
	ks := make([]string, 0, len(skus))
	for _, s := range skus {
		ks = append(ks, "stock:"+s)
	}
	rdb.MGet(ctx, ks...) // want `MGet keys "stock:<skus\[i\]>" for two different elements of skus are on different hash slots for all but about 1 in 16384 pairs of them \(assuming skus\[i\] holds no brace\)`

	var vs []string
	for _, s := range skus {
		vs = append(vs, "stock:"+s)
	}
	rdb.MGet(ctx, vs...) // want `MGet keys "stock:<skus\[i\]>" for two different elements of skus`

	byIndex := make([]string, len(names))
	for i, n := range names {
		byIndex[i] = "flag:" + n
	}
	rdb.Del(ctx, byIndex...) // want `Del keys "flag:<names\[i\]>" for two different elements of names`

	onlyIndex := make([]string, len(names))
	for i := range names {
		onlyIndex[i] = "flag:" + names[i]
	}
	rdb.Del(ctx, onlyIndex...) // want `Del keys "flag:<names\[i\]>" for two different elements of names`

	tagged := make([]string, 0, len(skus))
	for _, s := range skus {
		tagged = append(tagged, "stock:{"+user+"}:"+s)
	}
	rdb.MGet(ctx, tagged...) // one tag: silent

	longer := make([]string, len(names)+1)
	for i, n := range names {
		longer[i] = "flag:" + n
	}
	rdb.Del(ctx, longer...) // its last key stays "": not read

	built := make([]string, 0, len(skus))
	for _, s := range skus {
		built = append(built, "stock:"+s)
	}
	rc.Do(ctx, rc.B().Mget().Key(built...).Build()) // want `MGET keys "stock:<skus\[i\]>" for two different elements of skus`
}

func dayKey(t time.Time) string { return "day:" + t.Format("2006-01-02") }

type board struct{ rdb *goredis.ClusterClient }

func (b *board) daily(game string, d int) string { return fmt.Sprintf("lb:%s:%d", game, d) }

// Loops whose bounds the code does not fix: each iteration's key differs.
func loops(ctx context.Context, b *board, today time.Time, days, week int, game string) {
	var src []string
	for i := 0; i < days; i++ {
		src = append(src, dayKey(today.AddDate(0, 0, -i)))
	}
	b.rdb.SUnion(ctx, src...)              // want `SUnion keys "day:<today.AddDate\(0, 0, -i\)>" for two different iterations of the loop on i < days are on different hash slots for all but about 1 in 16384 pairs of them; read each key and compute the result in the client, or tag every key with an entity they all belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
	b.rdb.SUnionStore(ctx, "week", src...) // want `SUnionStore keys "week" and "day:<today.AddDate\(0, 0, -i\)>" are on different hash slots for all but about 1 in 16384 values of today.AddDate\(0, 0, -i\); read each key, compute the result in the client and write it to the destination, since the only tag both could share is a constant one, which puts every such key on one slot$`

	var fixed []string
	for _, d := range []int{1, 2, 3} {
		fixed = append(fixed, b.daily(game, d))
	}
	b.rdb.SUnion(ctx, fixed...) // want `SUnion keys "lb:<game>:1" and "lb:<game>:2" are on different hash slots for every value of game \(assuming game holds no brace\)`

	var week7 []string
	for d := 0; d < 7; d++ {
		week7 = append(week7, b.daily(game, week*7+d))
	}
	b.rdb.SUnion(ctx, week7...) // want `SUnion keys "lb:<game>:<week\*7\+0>" and "lb:<game>:<week\*7\+1>" are on different hash slots for all but about 1 in 16384 values of game and week\*7\+0 \(assuming game holds no brace\)`

	var shards []string
	for i := 0; i < days; i++ {
		shards = append(shards, "shard:{"+game+"}:"+strconv.Itoa(i))
	}
	b.rdb.SUnion(ctx, shards...) // one tag: silent
}

// A redigo command line filled by index with one key per element.
func flags(conn redis.Conn, names []string) {
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = "flag:" + n
	}
	conn.Do("MGET", args...) // want `MGET keys "flag:<names\[i\]>" for two different elements of names`

	tagged := make([]any, len(names))
	for i, n := range names {
		tagged[i] = "flag:{app}:" + n
	}
	conn.Do("MGET", tagged...)
	conn.Do("HMGET", args...) // the first argument alone is a key
}

// Keys written as one list and split.
func splitLists(ctx context.Context, rdb *goredis.ClusterClient) {
	rdb.Del(ctx, strings.Fields("user:1:a user:2:a")...)    // want `Del keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	rdb.Del(ctx, strings.Split("{u}:a,{u}:b", ",")...)      // one tag
	rdb.MGet(ctx, strings.Split("order:1,order:2", ",")...) // want `MGet keys "order:1" \(slot \d+\) and "order:2" \(slot \d+\)`
}

// Batches a helper builds, in this package or another.
func helperBatches(ctx context.Context, rdb *goredis.ClusterClient, skus []string, shop string) {
	rdb.MGet(ctx, keys.StockKeys(skus)...)               // want `MGet keys "stock:<skus\[i\]>" for two different elements of skus are on different hash slots`
	rdb.MGet(ctx, keys.ShopKeys(shop, skus)...)          // one tag
	rdb.MGet(ctx, keys.StockKeys([]string{"a", "b"})...) // want `MGet keys "stock:a" \(slot \d+\) and "stock:b" \(slot \d+\) are on different hash slots`
	rdb.MGet(ctx, localKeys(skus)...)                    // want `MGet keys "sku:<skus\[i\]>" for two different elements of skus`
}

func localKeys(skus []string) []string {
	var out []string
	for _, s := range skus {
		out = append(out, "sku:"+s)
	}
	return out
}

// A slice made with its length and filled by index before the call holds
// those keys, for every client.
func madeAndIndexed(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, user string) {
	keys := make([]string, 2)
	keys[0] = "cart:" + user
	keys[1] = "order:" + user
	rdb.MGet(ctx, keys...)                         // want `MGet keys "cart:<user>" and "order:<user>" are on different hash slots`
	rc.Do(ctx, rc.B().Mget().Key(keys...).Build()) // want `MGET keys "cart:<user>" and "order:<user>" are on different hash slots`
	late := make([]string, 2)
	late[0] = "cart:" + user
	rdb.MGet(ctx, late...) // filled after the call: not read
	late[1] = "order:" + user
	tagged := make([]string, 2)
	tagged[0], tagged[1] = "cart:{"+user+"}", "order:{"+user+"}"
	rdb.MGet(ctx, tagged...)
}

// A struct's slice field a range loop appends to is a family over the
// loop's slice.
func fieldAppendedInLoop(ctx context.Context, rdb *goredis.ClusterClient, courses []string, c string) {
	z := &goredis.ZStore{Aggregate: "SUM"}
	for _, id := range courses {
		z.Keys = append(z.Keys, "views:"+id)
	}
	rdb.ZInterStore(ctx, "views:all", z) // want `ZInterStore keys "views:all" and "views:<courses\[i\]>" are on different hash slots`

	day := &goredis.ZStore{}
	for _, d := range courses {
		day.Keys = append(day.Keys, "views:{"+c+"}:"+d)
	}
	rdb.ZInterStore(ctx, "views:{"+c+"}:week", day)
}

// A slice a range loop fills, read in a closure that captures it (a
// transaction's callback, a goroutine), is the loop's family there too.
func capturedFamily(ctx context.Context, rdb *goredis.ClusterClient, ids []string, c string) {
	var ks []string
	for _, id := range ids {
		ks = append(ks, "bal:"+id)
	}
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, ks...) // want `Del keys "bal:<ids\[i\]>" for two different elements of ids are on different hash slots`
		return nil
	})
	go func() {
		rdb.MGet(ctx, ks...) // want `MGet keys "bal:<ids\[i\]>" for two different elements of ids are on different hash slots`
	}()
	tagged := make([]string, 0, len(ids))
	for _, id := range ids {
		tagged = append(tagged, "bal:{"+c+"}:"+id)
	}
	go func() {
		rdb.MGet(ctx, tagged...)
	}()
}
