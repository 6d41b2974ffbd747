package tx

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// XAdd takes its stream in XAddArgs.Stream, XClaim in XClaimArgs.Stream,
// ZRangeArgs its key in ZRangeArgs.Key: a transaction's keys like any.
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
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XClaim(ctx, &redis.XClaimArgs{Stream: "events:" + queue, Group: "g", Consumer: "c", Messages: []string{task}})
		p.ZRangeArgs(ctx, redis.ZRangeArgs{Key: "pending:" + queue, Start: 0, Stop: -1}) // want `TxPipelined keys "events:<queue>" \(XClaim\) and "pending:<queue>" \(ZRangeArgs\) are on different hash slots`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XClaim(ctx, &redis.XClaimArgs{Stream: "{" + queue + "}:events", Group: "g", Consumer: "c", Messages: []string{task}})
		p.ZRangeArgs(ctx, redis.ZRangeArgs{Key: "{" + queue + "}:pending", Start: 0, Stop: -1}) // one tag
		return nil
	})
}
