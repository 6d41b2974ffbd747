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
