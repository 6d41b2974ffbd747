package main

// Shape 5: Lua scripts that touch several KEYS, or that derive keys inside
// the script.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ---------------------------------------------------------------------------
// Source: github.com/MartialBE/one-hub, common/limit/tokenlimit.go
// (TokenLimiter, tokenFormat/timestampFormat) and common/redis/redis.go
// (package client RDB, here OneHubRDB; ScriptRunCtx); issue
// https://github.com/MartialBE/one-hub/issues/443, fix PR
// https://github.com/MartialBE/one-hub/pull/444 ("%s:tokens" -> "{%s}:tokens").
// Shapes 2 and 5. Bug: the token-bucket script's two keys were one run-time
// prefix (the caller's token or user) at the start of two keys. OneHubRDB is
// redis.UniversalClient here (*redis.Client in the original) so that it can
// hold the cluster client.

// OneHubRDB is one-hub's package-level client (redis.RDB there).
var OneHubRDB redis.UniversalClient

// ScriptRunCtx runs a script on RDB.
func ScriptRunCtx(ctx context.Context, script *redis.Script, keys []string, args ...interface{}) (interface{}, error) {
	return script.Run(ctx, OneHubRDB, keys, args...).Result()
}

const (
	tokenFormat     = "%s:tokens"
	timestampFormat = "%s:ts"
)

const (
	tokenFormatTagged     = "{%s}:tokens"
	timestampFormatTagged = "{%s}:ts"
)

// tokengetscript.lua: the bucket's tokens now, without taking any.
var tokenGetScript = redis.NewScript(`
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local last_tokens = tonumber(redis.call("get", KEYS[1]))
if last_tokens == nil then
    return capacity
end
local last_refreshed = tonumber(redis.call("get", KEYS[2]))
if last_refreshed == nil then
    last_refreshed = 0
end
local delta = math.max(0, now-last_refreshed)
return math.min(capacity, last_tokens+(delta*rate))
`)

// TokenBurstMultiplier scales the burst to a per-minute rate.
const TokenBurstMultiplier = 1

// TokenLimiter is a token bucket kept in Redis.
type TokenLimiter struct {
	rate       int
	actualRate int
	burst      int
}

// NewTokenLimiter returns a new TokenLimiter.
func NewTokenLimiter(rate, actualRate, burst int) *TokenLimiter {
	return &TokenLimiter{rate: rate, actualRate: actualRate, burst: burst}
}

// GetCurrentRate returns the rate used, before the fix.
func (lim *TokenLimiter) GetCurrentRate(keyPrefix string) (int, error) {
	tokenKey := fmt.Sprintf(tokenFormat, keyPrefix)
	timestampKey := fmt.Sprintf(timestampFormat, keyPrefix)

	resp, err := ScriptRunCtx(context.Background(),
		tokenGetScript,
		[]string{
			tokenKey,
			timestampKey,
		},
		strconv.Itoa(lim.rate),
		strconv.Itoa(lim.burst),
		strconv.FormatInt(time.Now().Unix(), 10),
	)
	return lim.usedRate(resp, err)
}

// GetCurrentRateFixed returns the rate used, after the fix.
func (lim *TokenLimiter) GetCurrentRateFixed(keyPrefix string) (int, error) {
	tokenKey := fmt.Sprintf(tokenFormatTagged, keyPrefix)
	timestampKey := fmt.Sprintf(timestampFormatTagged, keyPrefix)

	resp, err := ScriptRunCtx(context.Background(),
		tokenGetScript,
		[]string{
			tokenKey,
			timestampKey,
		},
		strconv.Itoa(lim.rate),
		strconv.Itoa(lim.burst),
		strconv.FormatInt(time.Now().Unix(), 10),
	)
	return lim.usedRate(resp, err)
}

func (lim *TokenLimiter) usedRate(resp interface{}, err error) (int, error) {
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	currentTokens, ok := resp.(int64)
	if !ok {
		return 0, fmt.Errorf("无法转换令牌使用结果")
	}
	if int(currentTokens) >= lim.burst {
		return 0, nil
	}
	usedTokens := lim.burst - int(currentTokens)
	return usedTokens * 60 / TokenBurstMultiplier, nil
}

func badOneHubTokenRate(ctx context.Context, e env) error {
	OneHubRDB = e.rdb
	keyPrefix := e.drawApart(ctx, func(id string) (string, string) {
		return fmt.Sprintf(tokenFormat, "api-limit:"+id), fmt.Sprintf(timestampFormat, "api-limit:"+id)
	})
	_, err := NewTokenLimiter(10, 600, 20).GetCurrentRate("api-limit:" + keyPrefix)
	return err
}

func goodOneHubTokenRate(ctx context.Context, e env) error {
	OneHubRDB = e.rdb
	_, err := NewTokenLimiter(10, 600, 20).GetCurrentRateFixed("api-limit:" + newID())
	return err
}

// ---------------------------------------------------------------------------
// Source: github.com/jefferyjob/go-redislock, lock_redis.go (RedisLock.Lock)
// and lua/lock.lua; issue https://github.com/jefferyjob/go-redislock/issues/43,
// fix PR https://github.com/jefferyjob/go-redislock/pull/44 ("adding braces
// to lock_key to make sure the lock_key and reentrant_key exist in same
// cluster hash slot"). Shape 5 (key derived in Lua; with shape 2: the lock
// key at the start of the reentrant key). Bug: the script built
// KEYS[1]..':count:'..token itself, on another slot than KEYS[1]; Redis 7.0
// refuses it when another node serves that slot (2 in 3 on three masters,
// so the bad case draws such a key). The fix
// works on '{'..KEYS[1]..'}', whose slot is KEYS[1]'s own when the lock key
// has no brace.

const lockScript = `
local lock_key = KEYS[1]
local lock_value = ARGV[1]
local lock_ttl = tonumber(ARGV[2])
local reentrant_key = lock_key .. ':count:' .. lock_value
local reentrant_count = tonumber(redis.call('GET', reentrant_key) or '0')

if reentrant_count > 0 then
    redis.call('INCR', reentrant_key)
    redis.call('EXPIRE', lock_key, lock_ttl)
    redis.call('EXPIRE', reentrant_key, lock_ttl)
    return "OK"
end

if redis.call('SET', lock_key, lock_value, 'NX', 'EX', lock_ttl) then
    redis.call('SET', reentrant_key, 1)
    redis.call('EXPIRE', reentrant_key, lock_ttl)
    return "OK"
end

return nil`

const lockScriptTagged = `
local lock_key = '{' .. KEYS[1] .. '}'
local lock_value = ARGV[1]
local lock_ttl = tonumber(ARGV[2])
local reentrant_key = lock_key .. ':count:' .. lock_value
local reentrant_count = tonumber(redis.call('GET', reentrant_key) or '0')

if reentrant_count > 0 then
    redis.call('INCR', reentrant_key)
    redis.call('EXPIRE', lock_key, lock_ttl)
    redis.call('EXPIRE', reentrant_key, lock_ttl)
    return "OK"
end

if redis.call('SET', lock_key, lock_value, 'NX', 'EX', lock_ttl) then
    redis.call('SET', reentrant_key, 1)
    redis.call('EXPIRE', reentrant_key, lock_ttl)
    return "OK"
end

return nil`

// RedisLock is a reentrant lock.
type RedisLock struct {
	Context     context.Context
	Client      redis.UniversalClient
	key         string
	token       string
	lockTimeout time.Duration
	mutex       sync.Mutex
}

// Option configures a RedisLock.
type Option func(lock *RedisLock)

// WithToken sets the lock's token.
func WithToken(token string) Option {
	return func(lock *RedisLock) { lock.token = token }
}

// WithTimeout sets the lock's timeout.
func WithTimeout(timeout time.Duration) Option {
	return func(lock *RedisLock) { lock.lockTimeout = timeout }
}

// New creates a lock on lockKey.
func New(ctx context.Context, redisClient redis.UniversalClient, lockKey string, options ...Option) *RedisLock {
	lock := &RedisLock{
		Context:     ctx,
		Client:      redisClient,
		key:         lockKey,
		token:       newID(),
		lockTimeout: 5 * time.Second,
	}
	for _, f := range options {
		f(lock)
	}
	return lock
}

// Lock 加锁
func (lock *RedisLock) Lock() error {
	lock.mutex.Lock()
	defer lock.mutex.Unlock()

	result, err := lock.Client.Eval(lock.Context, lockScript, []string{lock.key}, lock.token, lock.lockTimeout.Seconds()).Result()

	if err != nil {
		return fmt.Errorf("failed to acquire lock: %w", err)
	}

	if result != "OK" {
		return errors.New("lock acquisition failed")
	}

	return nil
}

// LockFixed is Lock after the fix: the same call, with the tagged script.
func (lock *RedisLock) LockFixed() error {
	lock.mutex.Lock()
	defer lock.mutex.Unlock()

	result, err := lock.Client.Eval(lock.Context, lockScriptTagged, []string{lock.key}, lock.token, lock.lockTimeout.Seconds()).Result()

	if err != nil {
		return fmt.Errorf("failed to acquire lock: %w", err)
	}

	if result != "OK" {
		return errors.New("lock acquisition failed")
	}

	return nil
}

func badRedislockLock(ctx context.Context, e env) error {
	token := newID()
	lockKey := e.drawOtherNode(ctx, func(id string) (string, string) { return "order:" + id, "order:" + id + ":count:" + token })
	return New(ctx, e.rdb, "order:"+lockKey, WithToken(token)).Lock()
}

func goodRedislockLock(ctx context.Context, e env) error {
	return New(ctx, e.rdb, "order:"+newID()).LockFixed()
}

// ---------------------------------------------------------------------------
// Source: github.com/hibiken/asynq, internal/rdb/rdb.go (dequeue,
// dequeueCmd) before v0.18; same issue as badAsynqDequeueSingle
// (shape2_ids.go), fixed by the tagged per-queue keys of goodAsynqDequeue.
// Shape 5. Bug: the queue keys were passed in ARGV and popped inside the
// script, so the script touched keys it did not declare, on other slots
// than KEYS[1] (the in-progress list); refused when another node serves them.

// KEYS[1] -> asynq:in_progress
// ARGV    -> List of queues to query in order
var dequeueMultiCmd = redis.NewScript(`
local res
for _, qkey in ipairs(ARGV) do
	res = redis.call("RPOPLPUSH", qkey, KEYS[1])
	if res then
		return res
	end
end
return res`)

func (r *RDB) dequeue(ctx context.Context, queues ...string) (data string, err error) {
	var args []interface{}
	for _, qkey := range queues {
		args = append(args, qkey)
	}
	res, err := dequeueMultiCmd.Run(ctx, r.client, []string{InProgressQueue}, args...).Result()
	if err != nil {
		return "", err
	}
	return fmt.Sprint(res), nil
}

func badAsynqDequeueScript(ctx context.Context, e env) error {
	critical := e.drawOtherNode(ctx, func(id string) (string, string) { return InProgressQueue, QueueKey(id) })
	r := &RDB{client: e.rdb}
	_, err := r.Dequeue(ctx, critical, newID())
	return err
}
