package tx

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A helper that takes the pipeline as a variadic and picks it at run time
// (its own client when none is given): its commands, queued through the
// transaction's pipeline, belong to that transaction.
type connStore struct{ rdb *redis.ClusterClient }

func (s *connStore) conn(cs ...redis.Cmdable) redis.Cmdable {
	if len(cs) > 0 {
		return cs[0]
	}
	return s.rdb
}

func (s *connStore) touch(ctx context.Context, id string, cs ...redis.Cmdable) {
	s.conn(cs...).Incr(ctx, "conn:"+id)
}

func (s *connStore) touchTagged(ctx context.Context, owner, id string, cs ...redis.Cmdable) {
	s.conn(cs...).Incr(ctx, "conn:{"+owner+"}:"+id)
}

func (s *connStore) both(ctx context.Context, a, b string) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		s.touch(ctx, a, p)
		s.touch(ctx, b, p) // want `TxPipelined keys "conn:<a>" \(Incr\) and "conn:<b>" \(Incr\) are on different hash slots`
		return nil
	})
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		s.touchTagged(ctx, a, "x", p)
		s.touchTagged(ctx, a, "y", p) // one owner's tag
		return nil
	})
	s.touch(ctx, a) // no pipeline given: its own client, no transaction
	s.touch(ctx, b)
}

// A helper that picks the first of the pipelines it is given in place, and
// one that takes an interface of the module's own whose methods are
// go-redis's commands: what they queue on the transaction's pipeline is
// its.
func pickFirst(ctx context.Context, key string, cs ...redis.Cmdable) {
	c := cs[0]
	c.Incr(ctx, key)
}

type counter interface {
	Incr(ctx context.Context, key string) *redis.IntCmd
}

func count(ctx context.Context, c counter, key string) { c.Incr(ctx, key) }

func (s *connStore) transfers(ctx context.Context, a, b string) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		pickFirst(ctx, "bal:"+a, p)
		pickFirst(ctx, "bal:"+b, p) // want `TxPipelined keys "bal:<a>" \(Incr\) and "bal:<b>" \(Incr\) are on different hash slots`
		return nil
	})
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		count(ctx, p, "bal:"+a)
		count(ctx, p, "bal:"+b) // want `TxPipelined keys "bal:<a>" \(Incr\) and "bal:<b>" \(Incr\) are on different hash slots`
		return nil
	})
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		pickFirst(ctx, "bal:{"+a+"}:x", p)
		count(ctx, p, "bal:{"+a+"}:y")
		return nil
	})
	pickFirst(ctx, "bal:"+a, s.rdb) // no transaction
	count(ctx, s.rdb, "bal:"+b)
}

// A helper that queues a command for each key it is given queues one per
// element of the caller's slice.
func incrEach(ctx context.Context, p redis.Pipeliner, keys ...string) {
	for _, k := range keys {
		p.Incr(ctx, k)
	}
}

func (s *connStore) incrEach(ctx context.Context, a, b string, ids []string) {
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incrEach(ctx, p, "bal:"+a, "bal:"+b) // want `TxPipelined keys "bal:<a>" \(Incr\) and "bal:<b>" \(Incr\) are on different hash slots`
		return nil
	})
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incrEach(ctx, p, "bal:{"+a+"}:x", "bal:{"+a+"}:y")
		return nil
	})
	s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incrEach(ctx, p, ids...) // the caller's keys, whatever they are
		return nil
	})
	var ks []string
	for _, id := range ids {
		ks = append(ks, "bal:"+id)
	}
	pipe := s.rdb.TxPipeline()
	incrEach(ctx, pipe, ks...) // want `TxPipeline keys "bal:<ids\[i\]>" \(Incr\) and "bal:<ids\[i\]>" \(Incr\) for two different elements of a loop are on different hash slots`
	pipe.Exec(ctx)
}
