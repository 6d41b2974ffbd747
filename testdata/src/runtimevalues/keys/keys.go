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

// Rename stores into q.name between the reads: two values, not compared.
func (q *Queue) Rename(ctx context.Context, next string) {
	a := "q:" + q.name + ":acks"
	q.name = next
	q.rdb.Del(ctx, a, "q:"+q.name+":done")
}

// RenameLatest fails for all but about 1 in 16384 values of n, whatever its
// callers pass: reported here, once, not at each caller.
func RenameLatest(ctx context.Context, rdb *redis.ClusterClient, n string) {
	rdb.Rename(ctx, "report:latest", "report:"+n) // want `Rename keys "report:latest" and "report:<n>" are on different hash slots for all but about 1 in 16384 values of n \(assuming n holds no brace\)`
}
