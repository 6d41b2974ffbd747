// Package keys builds keys from run-time values, for callers in another
// package.
package keys

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// DayKey is a leaderboard's key for one day.
func DayKey(board string, day int) string { // want DayKey:`key "lb:"\+p1\+":"\+%d\(p2\)`
	return fmt.Sprintf("lb:%s:%d", board, day)
}

// Queue's name is set from its constructor's parameter.
type Queue struct {
	rdb  redis.UniversalClient
	name string
}

func NewQueue(rdb redis.UniversalClient, name string) *Queue { return &Queue{rdb: rdb, name: name} }

// Ack reads q.name twice: one value, so the two keys are compared.
func (q *Queue) Ack(ctx context.Context, id string) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "q:"+q.name+":acks")
		p.Incr(ctx, "q:"+q.name+":done") // want `TxPipelined keys "q:<q.name>:acks" \(Incr\) and "q:<q.name>:done" \(Incr\) are on different hash slots for every value of q.name \(assuming q.name holds no brace\)`
		return nil
	})
	return err
}

// AckTagged keeps the queue's keys under one tag.
func (q *Queue) AckTagged(ctx context.Context, id string) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "q:{"+q.name+"}:acks")
		p.Incr(ctx, "q:{"+q.name+"}:done")
		return nil
	})
	return err
}

// Rename stores into q.name between the reads: the first is the old name,
// the second next, a whole key its callers give.
func (q *Queue) Rename(ctx context.Context, next string) { // want Rename:`sink Del\("q:"\+\?\+":acks", p3\) at keys.go:50`
	a := "q:" + q.name + ":acks"
	q.name = next
	q.rdb.Del(ctx, a, q.name)
}

// RenameLatest fails for all but about 1 in 16384 values of n, whatever its
// callers pass: reported here, once, not at each caller.
func RenameLatest(ctx context.Context, rdb *redis.ClusterClient, n string) {
	rdb.Rename(ctx, "report:latest", "report:"+n) // want `Rename keys "report:latest" and "report:<n>" are on different hash slots for all but about 1 in 16384 values of n \(assuming n holds no brace\)`
}

// Store is the project's own client interface: its one implementation wraps
// go-redis, so a call through it runs redisStore's commands.
type Store interface {
	Pair(ctx context.Context, a, b string) error    // want Pair:`sink MGet\(p3, p4\) at keys.go:\d+`
	Drop(ctx context.Context, keys ...string) error // want Drop:`sink Del\(p3...\) at keys.go:\d+`
}

type redisStore struct{ rdb redis.UniversalClient }

// NewStore hides the implementation behind the interface.
func NewStore(rdb redis.UniversalClient) Store { return &redisStore{rdb: rdb} } // want NewStore:`returns \*redisStore`

func (s *redisStore) Pair(ctx context.Context, a, b string) error { // want Pair:`sink MGet\(p3, p4\) at keys.go:\d+`
	return s.rdb.MGet(ctx, a, b).Err()
}

func (s *redisStore) Drop(ctx context.Context, keys ...string) error { // want Drop:`sink Del\(p3...\) at keys.go:\d+`
	return s.rdb.Del(ctx, keys...).Err()
}

// Accounts holds the store as the interface.
type Accounts struct{ store Store }

func (s *Accounts) Move(ctx context.Context, acct string) { // want Move:`sink MGet\("bal:{"\+p3\+"}:cur", "bal:{"\+p3\+"}:prev"\) at keys.go:\d+`
	s.store.Pair(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev") // want `MGet keys "bal:<acct>:cur" and "bal:<acct>:prev" are on different hash slots for all but about 1 in 16384 values of acct \(assuming acct holds no brace\) in redisStore.Pair \(keys.go:\d+\)`
	s.store.Pair(ctx, "bal:{"+acct+"}:cur", "bal:{"+acct+"}:prev")
}

// Cache has two implementations: which one a call runs is decided at run
// time, so a call through it is judged with each (the in-memory one sends
// nothing).
type Cache interface {
	Forget(ctx context.Context, keys ...string) error
}

type redisCache struct{ rdb redis.UniversalClient }

func (c redisCache) Forget(ctx context.Context, keys ...string) error { // want Forget:`sink Del\(p3...\) at keys.go:\d+`
	return c.rdb.Del(ctx, keys...).Err()
}

type memoryCache map[string]string

func (c memoryCache) Forget(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		delete(c, k)
	}
	return nil
}

func forgetBoth(ctx context.Context, c Cache) {
	c.Forget(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots in redisCache.Forget`
	c.Forget(ctx, "{a}1", "{a}2")
}

// Journal has one implementation here; the importing package adds another.
type Journal interface {
	Append(ctx context.Context, keys ...string) error // want Append:`sink Del\(p3...\) at keys.go:\d+`
}

type redisJournal struct{ rdb redis.UniversalClient }

func (j *redisJournal) Append(ctx context.Context, keys ...string) error { // want Append:`sink Del\(p3...\) at keys.go:\d+`
	return j.rdb.Del(ctx, keys...).Err()
}

// Sessions' one implementation talks to one node: nothing to follow.
type Sessions interface {
	Both(ctx context.Context, a, b string) error
}

type localSessions struct{ rdb *redis.Client }

func (s localSessions) Both(ctx context.Context, a, b string) error {
	return s.rdb.MGet(ctx, a, b).Err()
}
