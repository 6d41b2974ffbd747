package values

import (
	"context"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// One tag template over two values: "sess:{"+a+"}" and "sess:{"+b+"}"
// are the same text only where a equals b (both empty among them), so
// two different values are two slots but for about 1 in 16384 pairs.

func templateOverTwoValues(ctx context.Context, rdb *goredis.ClusterClient, a, b string) {
	rdb.Rename(ctx, "sess:{"+a+"}", "sess:{"+b+"}")                     // want `Rename keys "sess:\{<a>\}" and "sess:\{<b>\}" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b \(assuming a and b hold no brace\)`
	rdb.SMove(ctx, "queue:{"+a+"}:ready", "queue:{"+b+"}:ready", "job") // want `SMove keys "queue:\{<a>\}:ready" and "queue:\{<b>\}:ready" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Incr(ctx, "bal:{"+a+"}")
		p.Incr(ctx, "bal:{"+b+"}") // want `TxPipelined keys "bal:\{<a>\}" \(Incr\) and "bal:\{<b>\}" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
		return nil
	})
	rdb.Rename(ctx, "sess:{"+a+"}", "sess:{"+a+"}:old")           // one value: one tag
	rdb.SMove(ctx, "queue:{"+a+"}:ready", "queue:{"+a+"}:x", "j") // one value: one tag
	c := a
	rdb.Rename(ctx, "sess:{"+a+"}", "sess:{"+c+"}:old") // the same value under another name
}

// The value read twice, written the same way: one value.
func templateOverOneField(ctx context.Context, rdb *goredis.ClusterClient, s *struct{ ID string }) {
	rdb.Rename(ctx, "sess:{"+s.ID+"}", "sess:{"+s.ID+"}:old")
}

func templateOverTwoValuesRueidis(ctx context.Context, c rueidis.Client, from, to string) {
	c.Do(ctx, c.B().Rename().Key("sess:{"+from+"}").Newkey("sess:{"+to+"}").Build())       // want `RENAME keys "sess:\{<from>\}" and "sess:\{<to>\}" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
	c.Do(ctx, c.B().Rename().Key("sess:{"+from+"}").Newkey("sess:{"+from+"}:old").Build()) // one tag
}

// One tag template over a loop's elements: each element its own tag.
func templateOverElements(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, followers []string, tenant string) {
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, u := range followers {
			p.Incr(ctx, "feed:{"+u+"}") // want `TxPipelined keys "feed:\{<followers\[i\]>\}" \(Incr\) and "feed:\{<followers\[i\]>\}" \(Incr\) for two different elements of a loop are on different hash slots`
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, u := range followers {
			p.Incr(ctx, "feed:{"+tenant+"}:"+u) // one tenant's tag
		}
		return nil
	})
	var ks []string
	for _, u := range followers {
		ks = append(ks, "feed:{"+u+"}")
	}
	c.Do(ctx, c.B().Del().Key(ks...).Build()) // want `DEL keys "feed:\{<followers\[i\]>\}" for two different elements of followers are on different hash slots`
	var one []string
	for _, u := range followers {
		one = append(one, "feed:{"+tenant+"}:"+u)
	}
	c.Do(ctx, c.B().Del().Key(one...).Build()) // one tenant's tag
}

// A map's keys in a range over it: another key in each iteration.
func mapKeysInTransaction(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, items map[string]string, tenant string) {
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for id, v := range items {
			p.Set(ctx, "item:"+id, v, 0) // want `TxPipelined keys "item:<id>" \(Set\) and "item:<id>" \(Set\) for two different elements of a loop are on different hash slots`
		}
		return nil
	})
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for id, v := range items {
			p.Set(ctx, "item:{"+tenant+"}:"+id, v, 0) // one tenant's tag
		}
		return nil
	})
	var ks []string
	for id := range items {
		ks = append(ks, "n:"+id)
	}
	c.Do(ctx, c.B().Del().Key(ks...).Build()) // want `DEL keys "n:<id>" for two different keys of items are on different hash slots`
}

// A map the function fills is no input: its keys may be few and fixed.
func mapMadeHere(ctx context.Context, rdb *goredis.ClusterClient) {
	m := map[string]int{"{a}1": 1, "{a}2": 2}
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for k := range m {
			p.Incr(ctx, k)
		}
		return nil
	})
}

// Sharded channels of one template over two values: two slots.
func shardedRooms(ctx context.Context, rdb *goredis.ClusterClient, a, b string) {
	rdb.SSubscribe(ctx, "room:{"+a+"}", "room:{"+b+"}")        // want `SSubscribe channels "room:\{<a>\}" and "room:\{<b>\}" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	rdb.SSubscribe(ctx, "room:{"+a+"}", "room:{"+a+"}:typing") // one room's tag
	conn := cluster.Get()
	conn.Do("SSUBSCRIBE", "room:{"+a+"}", "room:{"+b+"}")        // want `SSUBSCRIBE channels "room:\{<a>\}" and "room:\{<b>\}" are on different hash slots`
	conn.Do("SSUBSCRIBE", "room:{"+a+"}", "room:{"+a+"}:typing") // one room's tag
}

// Two values beside an integer they share: "unread:<rider>:<trip>" and
// "unread:<driver>:<trip>" differ where the rider and the driver stand.
type conversation struct {
	Trip   int64
	Rider  string
	Driver string
}

func twoValuesBesideOne(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, conv conversation) {
	rdb.Del(ctx, fmt.Sprintf("unread:%s:%d", conv.Rider, conv.Trip), fmt.Sprintf("unread:%s:%d", conv.Driver, conv.Trip))                       // want `Del keys "unread:<conv.Rider>:<conv.Trip>" and "unread:<conv.Driver>:<conv.Trip>" are on different hash slots for all but about 1 in 16384 pairs of different values of conv.Rider and conv.Driver`
	rdb.Del(ctx, fmt.Sprintf("unread:{%d}:%s", conv.Trip, conv.Rider), fmt.Sprintf("unread:{%d}:%s", conv.Trip, conv.Driver))                   // the trip's tag
	rdb.Del(ctx, fmt.Sprintf("n:%d", conv.Trip), fmt.Sprintf("n:%d", conv.Trip-1))                                                              // want `Del keys "n:<conv.Trip>" and "n:<conv.Trip - 1>" are on different hash slots`
	c.Do(ctx, c.B().Del().Key(fmt.Sprintf("unread:%s:%d", conv.Rider, conv.Trip), fmt.Sprintf("unread:%s:%d", conv.Driver, conv.Trip)).Build()) // want `DEL keys "unread:<conv.Rider>:<conv.Trip>" and "unread:<conv.Driver>:<conv.Trip>" are on different hash slots`
}
