// Package rueidiscalls builds commands with rueidis's builder: the cluster
// client's builder panics on keys of different slots.
package rueidiscalls

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/rueidis"
)

var limiter = rueidis.NewLuaScript("return 1")

func builders(ctx context.Context, c rueidis.Client, id int) {
	c.Do(ctx, c.B().Mget().Key("user:1:a", "user:2:a").Build()) // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots; the cluster client's builder panics on it \(multi key command with different key slots are not allowed\)`
	c.Do(ctx, c.B().Mget().Key("user:{1}:a", "user:{1}:b").Build())
	c.Do(ctx, c.B().Rename().Key("src").Newkey("dst").Build()) // want `RENAME keys "src" \(slot 13222\) and "dst" \(slot 9394\)`
	c.Do(ctx, c.B().Rename().Key("{src}").Newkey("{src}.bak").Build())
	c.Do(ctx, c.B().Sunionstore().Destination("dst").Key("s1", "s2").Build())                  // want `SUNIONSTORE keys "dst" \(slot 9394\) and "s1" \(slot 15224\)`
	c.Do(ctx, c.B().Arbitrary("MGET").Keys("k1", "k2").Build())                                // want `MGET keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	c.Do(ctx, c.B().Arbitrary("MGET").Args("k1", "k2").Build())                                // want `^MGET keys "k1" \(slot 12706\) and "k2" \(slot 449\) are on different hash slots; send one call per slot, or give keys that belong together one hash tag$`
	c.Do(ctx, c.B().Arbitrary("ZUNIONSTORE").Keys("out").Args("2").Keys("z:1", "z:2").Build()) // want `ZUNIONSTORE keys "out" \(slot \d+\) and "z:1" \(slot \d+\) are on different hash slots; the cluster client's builder panics`
	c.Do(ctx, c.B().Arbitrary("ZUNIONSTORE").Keys("{z}out").Args("2").Keys("{z}1", "{z}2").Build())
	c.Do(ctx, c.B().Get().Key("user:{}:a").Build())                                                           // want `GET key "user:\{\}:a" has an empty hash tag`
	c.Do(ctx, c.B().Mget().Key(fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id)).Build()) // want `for every value of id`
	cmd := c.B().Mget().Key("x:1").Key("x:2")                                                                 // want `MGET keys "x:1" \(slot \d+\) and "x:2" \(slot \d+\)`
	c.Do(ctx, cmd.Build())
	limiter.Exec(ctx, c, []string{"rate:1", "rate:2"}, nil) // want `Lua.Exec keys "rate:1" \(slot \d+\) and "rate:2" \(slot \d+\)`
	limiter.Exec(ctx, c, []string{"{rate}:1", "{rate}:2"}, nil)
	rueidis.MGet(c, ctx, []string{"user:1:a", "user:2:a"}) // split by slot: silent
}

func doMulti(ctx context.Context, c rueidis.Client) {
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("a").Value("1").Build(),
		c.B().Incr().Key("b").Build(), // want `DoMulti keys "a" \(slot 15495, SET\) and "b" \(slot 3300, INCR\) are on different hash slots; the cluster client panics on it`
		c.B().Exec().Build(),
	)
	c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("{a}1").Value("1").Build(),
		c.B().Incr().Key("{a}2").Build(),
		c.B().Exec().Build(),
	)
	c.DoMulti(ctx, c.B().Set().Key("a").Value("1").Build(), c.B().Incr().Key("b").Build()) // no MULTI: split by slot
}

// A read built for client-side caching (DoCache) is the same command: the
// cluster client's builder panics on keys of different slots.
func cached(ctx context.Context, c rueidis.Client, id, seller string) {
	c.DoCache(ctx, c.B().Mget().Key("lot:{"+id+"}:high", "seller:{"+seller+"}:rating").Cache(), time.Minute) // want `MGET keys "lot:\{<id>\}:high" and "seller:\{<seller>\}:rating" are on different hash slots`
	c.DoCache(ctx, c.B().Mget().Key("lot:{"+id+"}:high", "lot:{"+id+"}:ends").Cache(), time.Minute)
}

func singleClient(ctx context.Context) {
	one, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{":6379"}, ForceSingleClient: true})
	one.Do(ctx, one.B().Mget().Key("user:1:a", "user:2:a").Build()) // one node: silent
	maybe, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{":6379"}})
	maybe.Do(ctx, maybe.B().Mget().Key("user:1:a", "user:2:a").Build()) // want `MGET keys "user:1:a"`
}
