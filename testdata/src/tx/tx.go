// Package tx has transactions: every key of one MULTI/EXEC must be on one
// slot, across its commands.
package tx

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"tx/queue"
)

func txPipelined(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:1:visits")
		p.Incr(ctx, "user:2:visits") // want `TxPipelined keys "user:1:visits" \(slot 6646, Incr\) and "user:2:visits" \(slot 4483, Incr\) are on different hash slots; go-redis v9.11\+ rejects this transaction \(ErrCrossSlot\)`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:{1}:visits")
		p.Ping(ctx) // keyless: rides along
		p.Incr(ctx, "user:{1}:logins")
		return nil
	})
	// WAIT and WAITAOF take numbers, never keys (go-redis once read their
	// arguments as keys, issue #3607): nothing to compare.
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:{1}:visits")
		p.Do(ctx, "WAIT", "1", "0") // were "1" and "0" keys, they would be on other slots
		p.Do(ctx, "WAITAOF", "1", "1", "0")
		p.Incr(ctx, "user:{1}:logins")
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, fmt.Sprintf("user:%d:visits", id))
		p.Incr(ctx, fmt.Sprintf("user:%d:visits", id+1)) // want `TxPipelined keys "user:<id>:visits" \(Incr\) and "user:<id \+ 1>:visits" \(Incr\) are on different hash slots for all but about 1 in 16384 values of id and id \+ 1`
		return nil
	})
}

func txPipeline(ctx context.Context, rdb redis.UniversalClient) {
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "a")
	pipe.Get(ctx, "b") // want `TxPipeline keys "a" \(slot 15495, Incr\) and "b" \(slot 3300, Get\) are on different hash slots`
	pipe.Exec(ctx)

	next := rdb.TxPipeline()
	next.Incr(ctx, "{c}:1")
	next.Exec(ctx)
	next.Incr(ctx, "{q}:1") // a new batch after Exec: not compared with {c}
	next.Incr(ctx, "{q}:2")
	next.Exec(ctx)
}

// fill is a named callback.
func fill(p redis.Pipeliner) error {
	ctx := context.Background()
	p.Incr(ctx, "c:1")
	p.Incr(ctx, "c:2") // want `TxPipelined keys "c:1" \(slot \d+, Incr\) and "c:2" \(slot \d+, Incr\) are on different hash slots`
	return nil
}

func namedCallback(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.TxPipelined(ctx, fill)
}

// visit queues on the pipeline it is given.
func visit(ctx context.Context, p redis.Pipeliner, user int) {
	p.Incr(ctx, fmt.Sprintf("user:%d:visits", user))
}

func helpers(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		visit(ctx, p, 1)
		visit(ctx, p, 2) // want `TxPipelined keys "user:1:visits" \(slot 6646, Incr\) and "user:2:visits" \(slot 4483, Incr\)`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.Visit(ctx, p, 1)
		queue.Visit(ctx, p, 2) // want `TxPipelined keys "user:1:visits" \(slot 6646, Incr\) and "user:2:visits" \(slot 4483, Incr\)`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.Both(ctx, p, 7)  // one tag: silent
		queue.Both(ctx, p, id) // want `TxPipelined keys "user:\{7\}:a" \(Incr\) and "user:\{<id>\}:a" \(Incr\) are on different hash slots for all but about 1 in 16384 values of id;`
		return nil
	})
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		queue.Both(ctx, p, 1)
		queue.Both(ctx, p, 2) // want `TxPipelined keys "user:\{1\}:a" \(slot 9842, Incr\) and "user:\{2\}:a" \(slot 5649, Incr\)`
		return nil
	})
	pipe := rdb.TxPipeline()
	queue.Visit(ctx, pipe, 1)
	queue.Visit(ctx, pipe, 2) // want `TxPipeline keys "user:1:visits" \(slot 6646, Incr\) and "user:2:visits" \(slot 4483, Incr\)`
	pipe.Exec(ctx)
}

func watch(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "{a}:x")
		tx.Get(ctx, "b") // want `Watch keys "a" \(slot 15495\) and Get key "b" \(slot 3300\) are on different hash slots; the callback runs on the watched keys' node, where another slot fails with MOVED`
		return nil
	}, "a")
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "b") // want `Watch keys "a" \(slot 15495\) and Incr key "b" \(slot 3300\)`
			return nil
		})
		return err
	}, "a")
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "a")
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "{a}:n")
			return nil
		})
		return err
	}, "a")
}

func notTransactions(ctx context.Context, rdb *redis.ClusterClient, c *redis.Client) {
	// A plain pipeline is split per node by the client.
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:1:visits")
		p.Incr(ctx, "user:2:visits")
		return nil
	})
	pipe := rdb.Pipeline()
	pipe.Incr(ctx, "user:1:visits")
	pipe.Incr(ctx, "user:2:visits")
	pipe.Exec(ctx)
	// One node: any keys may share a transaction.
	c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:1:visits")
		p.Incr(ctx, "user:2:visits")
		return nil
	})
	c.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, "b")
		return nil
	}, "a")
}
