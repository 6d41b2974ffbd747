// Package store wraps multi-key commands: its callers' keys reach the
// commands through parameters, and the wrappers reach the callers as facts.
package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Pair reads two keys with one MGet; its own keys are unknown here: silent.
func Pair(ctx context.Context, rdb redis.UniversalClient, a, b string) error { // want Pair:`sink MGet\(p3, p4\) at store.go:13`
	return rdb.MGet(ctx, a, b).Err()
}

// DelAll deletes every key it is given.
func DelAll(ctx context.Context, rdb redis.Cmdable, keys ...string) error { // want DelAll:`sink Del\(p3...\) at store.go:18`
	return rdb.Del(ctx, keys...).Err()
}

// Archive renames a key beside itself: on one slot only when it is tagged.
func Archive(ctx context.Context, rdb redis.UniversalClient, key string) error { // want Archive:`sink Rename\(p3, p3\+":archived"\) at store.go:23`
	return rdb.Rename(ctx, key, key+":archived").Err()
}

// Twice goes through another wrapper.
func Twice(ctx context.Context, rdb redis.UniversalClient, key string) error { // want Twice:`sink MGet\(p3, "twice:"\+p3\) at store.go:13`
	return Pair(ctx, rdb, key, "twice:"+key)
}

// Limiter runs a script over the keys it is given, as rate limiters do.
type Limiter struct {
	rdb    redis.UniversalClient
	script *redis.Script
}

func (l *Limiter) Allow(ctx context.Context, keys []string, args ...interface{}) error { // want Allow:`sink Run\(p3...\) at store.go:38`
	return l.script.Run(ctx, l.rdb, keys, args...).Err()
}

// Fixed keys of its own that cross slots are reported here, once, not at
// every caller: no fact.
func Fixed(ctx context.Context, rdb redis.UniversalClient, key string) error {
	return rdb.MGet(ctx, "fixed:1", "fixed:2", key).Err() // want `MGet keys "fixed:1" \(slot \d+\) and "fixed:2" \(slot \d+\) are on different hash slots`
}

// WithOwn mixes a key of its own with its caller's.
func WithOwn(ctx context.Context, rdb redis.UniversalClient, key string) error { // want WithOwn:`sink MGet\("own:\{1\}", p3\) at store.go:49`
	return rdb.MGet(ctx, "own:{1}", key).Err()
}

// OnClient takes a single-node client: its command is skipped, not a sink.
func OnClient(ctx context.Context, rdb *redis.Client, a, b string) error {
	return rdb.MGet(ctx, a, b).Err()
}

// moveTask moves a task between a queue's keys: its declared key and its
// task key prefix (ARGV[1]) are the caller's, so each call is judged.
var moveTask = redis.NewScript(`local id = redis.call('LPOP', KEYS[1])
return redis.call('HSET', ARGV[1] .. id, 'state', 'active')`)

// Forward runs moveTask on the keys it is given, as job queues' internals do.
func Forward(ctx context.Context, rdb redis.UniversalClient, pendingKey, taskKeyPrefix string) error { // want Forward:`sink Run\(p3\) touching HSET p4\+\? at store.go:\d+`
	return moveTask.Run(ctx, rdb, []string{pendingKey}, taskKeyPrefix).Err() // keys from the parameters: judged at the calls
}

// uniqueLock reads a key whose name is stored in Redis: no call can pin it
// down, so it is judged here, once, not at every call.
var uniqueLock = redis.NewScript(`local name = redis.call('HGET', KEYS[1], 'lock')
return redis.call('GET', name)`) // want `Run script's GET key <name> is read from data \(HGET\) and not declared in KEYS`

// Unlock runs uniqueLock on the key it is given.
func Unlock(ctx context.Context, rdb redis.UniversalClient, taskKey string) error {
	return uniqueLock.Run(ctx, rdb, []string{taskKey}).Err()
}
