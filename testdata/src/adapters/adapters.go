// Package adapters uses rueidis through its go-redis-compatible adapter:
// calls through the adapter's interface run the methods of the type its
// constructor returns.
package adapters

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	valkey "github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"
)

func throughAdapter(ctx context.Context, a, b string) {
	client, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{":7000", ":7001"}})
	ad := rueidiscompat.NewAdapter(client)
	ad.MGet(ctx, "a:1", "b:2")               // want `MGET keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots in rueidiscompat.Compat.MGet`
	ad.MGet(ctx, "{a}:1", "{a}:2")           // one tag
	ad.MSet(ctx, "left:"+a, 1, "left:"+b, 1) // want `MSet keys "left:<a>" and "left:<b>" are on different hash slots`
	ad.MSet(ctx, "c:{"+a+"}:left", 1, "c:{"+a+"}:limit", 2)
	ad.Rename(ctx, "sess:{"+a+"}", "sess:{"+b+"}")     // want `RENAME keys "sess:\{<a>\}" and "sess:\{<b>\}" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	ad.Rename(ctx, "sess:{"+a+"}", "sess:{"+a+"}:old") // one tag
	ad.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, "bal:"+a)
		p.Incr(ctx, "bal:"+b) // want `TxPipelined keys "bal:<a>" \(Incr\) and "bal:<b>" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of a and b \(assuming a and b hold no brace\); the adapter's rueidis cluster client panics on it`
		return nil
	})
	ad.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, "bal:{"+a+"}:in")
		p.Incr(ctx, "bal:{"+a+"}:out") // one tag
		return nil
	})
}

// The adapter held in a field the package sets once.
type store struct{ ad rueidiscompat.Cmdable }

func newStore(client rueidis.Client) *store { return &store{ad: rueidiscompat.NewAdapter(client)} }

func (s *store) swap(ctx context.Context, a, b string) {
	s.ad.Rename(ctx, "acct:"+a, "acct:"+b) // want `RENAME keys "acct:<a>" and "acct:<b>" are on different hash slots`
}

// valkey-go's adapter, the same way.
func throughValkeyAdapter(ctx context.Context, a, b string) {
	client, _ := valkey.NewClient(valkey.ClientOption{InitAddress: []string{":7000", ":7001"}})
	ad := valkeycompat.NewAdapter(client)
	ad.MGet(ctx, "a:1", "b:2")                         // want `MGET keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots in valkeycompat.Compat.MGet`
	ad.MSet(ctx, "left:"+a, 1, "left:"+b, 1)           // want `MSet keys "left:<a>" and "left:<b>" are on different hash slots`
	ad.Rename(ctx, "cart:{"+a+"}", "cart:{"+a+"}:old") // one tag
	ad.TxPipelined(ctx, func(p valkeycompat.Pipeliner) error {
		p.Incr(ctx, "bal:"+a)
		p.Incr(ctx, "bal:"+b) // want `TxPipelined keys "bal:<a>" \(Incr\) and "bal:<b>" \(Incr\) are on different hash slots .*the adapter's valkey-go cluster client panics on it`
		return nil
	})
}

// The adapter given by main, through a constructor's parameter.
type engine struct{ legacy rueidiscompat.Cmdable }

func newEngine(legacy rueidiscompat.Cmdable) *engine { return &engine{legacy: legacy} }

func (e *engine) compare(ctx context.Context, a, b string) {
	e.legacy.MGet(ctx, "mult:"+a, "mult:"+b)             // want `MGET keys "mult:<a>" and "mult:<b>" are on different hash slots .*in rueidiscompat.Compat.MGet`
	e.legacy.MGet(ctx, "mult:{"+a+"}", "mult:{"+a+"}:x") // one tag
}

// A project's own interface of the adapter's methods, filled by main: a call
// runs the adapter's client method, as one through the adapter's interface.
type campaignStore interface {
	MGet(ctx context.Context, keys ...string) *valkeycompat.SliceCmd
	Rename(ctx context.Context, key, newkey string) *valkeycompat.StatusCmd
}

type campaigns struct{ db campaignStore }

func newCampaigns(db valkeycompat.Cmdable) *campaigns { return &campaigns{db: db} }

func (c *campaigns) publish(ctx context.Context, a, b string) {
	c.db.Rename(ctx, "campaign:draft:"+a, "campaign:{"+a+"}:rules") // want `RENAME keys "campaign:draft:<a>" and "campaign:\{<a>\}:rules" are on different hash slots .*in valkeycompat.Compat.Rename`
	c.db.Rename(ctx, "campaign:{"+a+"}:draft", "campaign:{"+a+"}:rules")
	c.db.MGet(ctx, "flag:"+a, "flag:"+b) // want `MGET keys "flag:<a>" and "flag:<b>" are on different hash slots .*in valkeycompat.Compat.MGet`
}

// An interface whose results are the project's own is not the adapter's.
type flagStore interface {
	MGet(ctx context.Context, keys ...string) []string
}

func readFlags(ctx context.Context, s flagStore, a, b string) { s.MGet(ctx, "flag:"+a, "flag:"+b) }

// The adapters' Script is go-redis's: its keys, and the keys its Lua
// reads, are judged as go-redis's are.
var (
	gradeByArg = rueidiscompat.NewScript(`local key = ARGV[1] redis.call('HGET', key, 'x') return redis.call('HGETALL', KEYS[1])`) // want `Run script's HGET key "ans:<b>" and the declared key "att:\{<a>\}" are on different hash slots`
	gradeBoth  = rueidiscompat.NewScript(`return redis.call('HGETALL', KEYS[1])`)
	awardBoth  = valkeycompat.NewScript(`return redis.call('INCR', KEYS[1]) + redis.call('INCR', KEYS[2])`)
)

func grade(ctx context.Context, kv rueidiscompat.Scripter, vk valkeycompat.Scripter, a, b string) {
	gradeByArg.Run(ctx, kv, []string{"att:{" + a + "}"}, "ans:"+b)
	gradeByArg.Run(ctx, kv, []string{"att:{" + a + "}"}, "att:{"+a+"}:key")
	gradeBoth.Run(ctx, kv, []string{"att:" + a, "ans:" + b}) // want `Run keys "att:<a>" and "ans:<b>" are on different hash slots`
	gradeBoth.Run(ctx, kv, []string{"att:{" + a + "}", "ans:{" + a + "}"})
	awardBoth.Run(ctx, vk, []string{"pts:" + a, "pts:" + b}) // want `Run keys "pts:<a>" and "pts:<b>" are on different hash slots`
	awardBoth.Run(ctx, vk, []string{"pts:{" + a + "}", "pts:{" + a + "}:all"})
}
