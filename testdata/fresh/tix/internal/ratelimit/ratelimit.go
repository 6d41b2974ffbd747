// Package ratelimit throttles API calls per user and route: fixed windows with
// a burst allowance, and a sliding log for the checkout route.
package ratelimit

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// Limiter is the rate limiter.
type Limiter struct {
	rdb    redis.UniversalClient
	limit  int
	burst  int
	window time.Duration
	now    func() time.Time
}

// Config configures a Limiter.
type Config struct {
	Limit  int
	Burst  int
	Window time.Duration
	// Clock is time.Now when nil (tests and replays set it).
	Clock func() time.Time
}

// New returns a limiter.
func New(rdb redis.UniversalClient, cfg Config) *Limiter {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	return &Limiter{rdb: rdb, limit: cfg.Limit, burst: cfg.Burst, window: cfg.Window, now: cfg.Clock}
}

func (l *Limiter) win() keyspace.Window {
	return keyspace.Window(l.now().Unix() / int64(l.window/time.Second))
}

// bucket is the counter of one user and route in one window.
func bucket(u keyspace.UserID, route string, w keyspace.Window) string {
	return "rl:" + string(u) + ":" + route + ":" + w.String()
}

// tagged bucket, by user.
func userBucket(u keyspace.UserID, route string, w keyspace.Window) string {
	return "rl:{" + string(u) + "}:" + route + ":" + w.String()
}

// allow increments the window counter and, past the limit, spends the burst
// allowance kept beside it. KEYS[1] = counter; ARGV = limit, burst, ttl s.
var allow = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
if n <= tonumber(ARGV[1]) then return 1 end
local b = redis.call('INCR', KEYS[1] .. ':burst')
if b == 1 then redis.call('EXPIRE', KEYS[1] .. ':burst', ARGV[3]) end
if b <= tonumber(ARGV[2]) then return 1 end
return 0
`)

func (l *Limiter) run(ctx context.Context, key string) (bool, error) {
	ok, err := allow.Run(ctx, l.rdb, []string{key}, l.limit, l.burst, int(2*l.window/time.Second)).Int()
	return ok == 1, err
}

// Allow reports whether the user may call the route now.
func (l *Limiter) Allow(ctx context.Context, u keyspace.UserID, route string) (bool, error) {
	// case T81: scriptslot
	return l.run(ctx, bucket(u, route, l.win()))
}

// AllowV2 is Allow on the user-tagged buckets.
func (l *Limiter) AllowV2(ctx context.Context, u keyspace.UserID, route string) (bool, error) {
	// case T82: none
	return l.run(ctx, userBucket(u, route, l.win()))
}

// allowAll charges one call to several routes at once, all or nothing (a
// bundle endpoint). KEYS = counters; ARGV = limit, ttl s.
var allowAll = redis.NewScript(`
for i = 1, #KEYS do
  local v = tonumber(redis.call('GET', KEYS[i]) or '0')
  if v >= tonumber(ARGV[1]) then return 0 end
end
for i = 1, #KEYS do
  redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
return 1
`)

// AllowBundle charges a call to every route of a bundle.
func (l *Limiter) AllowBundle(ctx context.Context, u keyspace.UserID, routes ...string) (bool, error) {
	// case T83: crossslot
	w := l.win()
	keys := make([]string, len(routes))
	for i, r := range routes {
		keys[i] = bucket(u, r, w)
	}
	ok, err := allowAll.Run(ctx, l.rdb, keys, l.limit, int(2*l.window/time.Second)).Int()
	return ok == 1, err
}

// AllowBundleV2 is AllowBundle on the user-tagged buckets.
func (l *Limiter) AllowBundleV2(ctx context.Context, u keyspace.UserID, routes ...string) (bool, error) {
	// case T84: none
	w := l.win()
	keys := make([]string, len(routes))
	for i, r := range routes {
		keys[i] = userBucket(u, r, w)
	}
	ok, err := allowAll.Run(ctx, l.rdb, keys, l.limit, int(2*l.window/time.Second)).Int()
	return ok == 1, err
}

// ban sets the user's ban flag when a counter overflows. KEYS[1] = counter;
// ARGV = limit, user.
var ban = redis.NewScript(`
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if v > tonumber(ARGV[1]) * 10 then
  redis.call('SET', 'rl:ban:' .. ARGV[2], 1, 'EX', 3600)
  return 1
end
return 0
`)

// Police bans a user who overran a route's limit tenfold.
func (l *Limiter) Police(ctx context.Context, u keyspace.UserID, route string) (bool, error) {
	// case T85: undeclaredkey
	n, err := ban.Run(ctx, l.rdb, []string{userBucket(u, route, l.win())}, l.limit, string(u)).Int()
	return n == 1, err
}

// Trend compares the current and the previous window of a route.
func (l *Limiter) Trend(ctx context.Context, u keyspace.UserID, route string) (cur, prev int64, err error) {
	// case T86: crossslot
	w := l.win()
	vals, err := l.rdb.MGet(ctx, bucket(u, route, w), bucket(u, route, w-1)).Result()
	if err != nil {
		return 0, 0, err
	}
	return toInt(vals[0]), toInt(vals[1]), nil
}

// TrendV2 is Trend on the user-tagged buckets.
func (l *Limiter) TrendV2(ctx context.Context, u keyspace.UserID, route string) (cur, prev int64, err error) {
	// case T87: none
	w := l.win()
	vals, err := l.rdb.MGet(ctx, userBucket(u, route, w), userBucket(u, route, w-1)).Result()
	if err != nil {
		return 0, 0, err
	}
	return toInt(vals[0]), toInt(vals[1]), nil
}

func toInt(v any) int64 {
	s, _ := v.(string)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// Sliding is the checkout route's sliding log: at most limit calls in any
// window.
func (l *Limiter) Sliding(ctx context.Context, u keyspace.UserID) (bool, error) {
	// case T88: none
	k := "rl:{" + string(u) + "}:checkout:log"
	now := l.now()
	var card *redis.IntCmd
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRemRangeByScore(ctx, k, "-inf", strconv.FormatInt(now.Add(-l.window).UnixMilli(), 10))
		p.ZAdd(ctx, k, redis.Z{Score: float64(now.UnixMilli()), Member: now.UnixNano()})
		card = p.ZCard(ctx, k)
		p.Expire(ctx, k, l.window)
		return nil
	})
	if err != nil {
		return false, err
	}
	return card.Val() <= int64(l.limit), nil
}
