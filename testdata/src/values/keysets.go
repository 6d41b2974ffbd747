package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"values/keys"
)

// A struct of an entity's keys that a function returns: each field is the
// function's template with the call's arguments put in, read directly or
// from a variable that holds the struct.
func keySets(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, u, v string) {
	rdb.Rename(ctx, keys.Cart(u).Items, keys.CheckoutItems(u)) // want `Rename keys "cart:\{<u>\}:items" and "checkout:<u>:items" are on different hash slots for all but about 1 in 16384 values of u`
	k := keys.Cart(u)
	rdb.Rename(ctx, k.Items, keys.CheckoutItems(u)) // want `Rename keys "cart:\{<u>\}:items" and "checkout:<u>:items" are on different hash slots`
	rdb.Rename(ctx, k.Items, k.Meta)                // one tag
	rdb.MGet(ctx, keys.Cart(u).Items, keys.Cart(u).Meta)
	rdb.MGet(ctx, keys.Cart(u).Items, keys.Cart(v).Items)                                   // want `MGet keys "cart:\{<u>\}:items" and "cart:\{<v>\}:items" are on different hash slots for all but about 1 in 16384 pairs of different values of u and v`
	c.Do(ctx, c.B().Rename().Key(keys.Cart(u).Items).Newkey(keys.CheckoutItems(u)).Build()) // want `RENAME keys "cart:\{<u>\}:items" and "checkout:<u>:items" are on different hash slots`
	c.Do(ctx, c.B().Rename().Key(keys.Cart(u).Items).Newkey(keys.Cart(u).Meta).Build())
}

// A struct of an entity's keys captured by a transaction's callback: the
// callback reads its fields as the function would.
func capturedKeySet(ctx context.Context, rdb goredis.UniversalClient, u string) {
	k := keys.Cart(u)
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, k.Items)
		p.Del(ctx, keys.CheckoutItems(u)) // want `TxPipelined keys "cart:\{<u>\}:items" \(Del\) and "checkout:<u>:items" \(Del\) are on different hash slots`
		return nil
	})
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, k.Items)
		p.Del(ctx, k.Meta)
		return nil
	})
}

// Near-miss: a callback that changes the captured set reads what it set.
func capturedKeySetChanged(ctx context.Context, rdb goredis.UniversalClient, u string) {
	k := keys.Cart(u)
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		k.Items = k.Meta
		p.Del(ctx, k.Items)
		p.Del(ctx, k.Meta)
		return nil
	})
}
