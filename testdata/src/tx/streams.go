package tx

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// XAdd takes its stream in XAddArgs.Stream: a transaction's key like any.
func streamAndQueue(ctx context.Context, rdb *redis.ClusterClient, task, queue string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: "events:" + queue, Values: map[string]any{"t": task}})
		p.ZRem(ctx, "pending:"+queue, task) // want `TxPipelined keys "events:<queue>" \(XAdd\) and "pending:<queue>" \(ZRem\) are on different hash slots`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: "{" + queue + "}:events", Values: map[string]any{"t": task}})
		p.ZRem(ctx, "{"+queue+"}:pending", task) // one tag
		return nil
	})
}
