// Package anticheat rate-limits player actions and bans offenders.
package anticheat

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/arena/internal/ids"
)

// ErrLimited is returned when an action is over its rate limit.
var ErrLimited = errors.New("anticheat: rate limited")

// Config tunes the limiter.
type Config struct {
	Window     time.Duration
	MaxActions int
	MaxStrikes int
	BanList    string
}

// Limiter counts actions in a sliding window and bans repeat offenders.
type Limiter struct {
	rdb *redis.ClusterClient
	cfg Config
}

// NewLimiter returns a Limiter.
func NewLimiter(rdb *redis.ClusterClient, cfg Config) *Limiter {
	return &Limiter{rdb: rdb, cfg: cfg}
}

type key string

func actions(p ids.PlayerID) key       { return key("ac:" + p.String() + ":actions") }
func actionsTagged(p ids.PlayerID) key { return key("ac:{" + p.String() + "}:actions") }
func strikesTagged(p ids.PlayerID) key { return key("ac:{" + p.String() + "}:strikes") }
func bannedTagged(p ids.PlayerID) key  { return key("ac:{" + p.String() + "}:banned") }
func logins(p ids.PlayerID) key        { return key("ac:" + p.String() + ":logins") }
func ipLogins(ip string) key           { return key("ac:ip:" + ip + ":logins") }
func banKey(p ids.PlayerID) key        { return key("ac:ban:" + p.String()) }

const activeBans key = "ac:bans:active"

func (k key) String() string { return string(k) }

// hit records one action in the window; over the limit it adds a strike to
// the key next to the window and returns the strike count.
var hit = redis.NewScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - window)
redis.call('ZADD', KEYS[1], now, now)
redis.call('PEXPIRE', KEYS[1], window)
if redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[3]) then
  return redis.call('INCR', KEYS[1] .. ':strikes')
end
return 0
`)

func (l *Limiter) hitArgs() []any {
	return []any{time.Now().UnixMicro(), l.cfg.Window.Microseconds(), l.cfg.MaxActions}
}

// Hit records an action of a player.
func (l *Limiter) Hit(ctx context.Context, p ids.PlayerID) (int64, error) {
	// case G40: scriptslot
	return hit.Run(ctx, l.rdb, []string{actions(p).String()}, l.hitArgs()...).Int64()
}

// HitTagged records an action of a player, keys under the player's tag.
func (l *Limiter) HitTagged(ctx context.Context, p ids.PlayerID) (int64, error) {
	// case G41: none
	return hit.Run(ctx, l.rdb, []string{actionsTagged(p).String()}, l.hitArgs()...).Int64()
}

// strike adds a strike and, past the maximum, adds the player to a ban list.
var strike = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n >= tonumber(ARGV[1]) then
  redis.call('SADD', ARGV[2], ARGV[3])
  return 1
end
return 0
`)

// Strike records a strike; players over the limit go to the configured
// ban list.
func (l *Limiter) Strike(ctx context.Context, p ids.PlayerID) (bool, error) {
	// case G42: undeclaredkey
	n, err := strike.Run(ctx, l.rdb, []string{strikesTagged(p).String()}, l.cfg.MaxStrikes, l.cfg.BanList, p.String()).Int()
	return n == 1, err
}

// strikeOwn is strike with the ban flag as a declared key of its own.
var strikeOwn = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], ARGV[2])
  return 1
end
return 0
`)

// StrikeOwn records a strike and flags the player as banned on their own slot.
func (l *Limiter) StrikeOwn(ctx context.Context, p ids.PlayerID) (bool, error) {
	// case G43: none
	keys := []string{strikesTagged(p).String(), bannedTagged(p).String()}
	n, err := strikeOwn.Run(ctx, l.rdb, keys, l.cfg.MaxStrikes, "strikes").Int()
	return n == 1, err
}

// LoginAttempts reads the failed-login counters of a player and of the IP
// they log in from.
func (l *Limiter) LoginAttempts(ctx context.Context, p ids.PlayerID, ip string) (player, addr int, err error) {
	// case G44: crossslot
	vals, err := l.rdb.MGet(ctx, logins(p).String(), ipLogins(ip).String()).Result()
	if err != nil {
		return 0, 0, err
	}
	return atoi(vals[0]), atoi(vals[1]), nil
}

// LoginAttemptsPipelined reads the same counters in one round trip.
func (l *Limiter) LoginAttemptsPipelined(ctx context.Context, p ids.PlayerID, ip string) (player, addr int, err error) {
	// case G45: none
	var pc, ic *redis.StringCmd
	_, err = l.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pc = pipe.Get(ctx, logins(p).String())
		ic = pipe.Get(ctx, ipLogins(ip).String())
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, 0, err
	}
	return atoi(pc.Val()), atoi(ic.Val()), nil
}

// Ban bans a player and lists the ban, atomically.
func (l *Limiter) Ban(ctx context.Context, p ids.PlayerID, reason string, d time.Duration) error {
	// case G46: crossslot
	_, err := l.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, banKey(p).String(), reason, d)
		pipe.SAdd(ctx, activeBans.String(), p.String())
		return nil
	})
	return err
}

// BanPipelined bans a player and lists the ban in one round trip; the
// sweeper drops listed bans whose key expired.
func (l *Limiter) BanPipelined(ctx context.Context, p ids.PlayerID, reason string, d time.Duration) error {
	// case G47: none
	_, err := l.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, banKey(p).String(), reason, d)
		pipe.SAdd(ctx, activeBans.String(), p.String())
		return nil
	})
	return err
}

func atoi(v any) int {
	switch v := v.(type) {
	case string:
		n, _ := strconv.Atoi(v)
		return n
	default:
		return 0
	}
}
