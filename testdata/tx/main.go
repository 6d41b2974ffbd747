// Command tx runs transactions on a cluster. Functions named bad* are ones
// crossslot must report; good* ones it must leave alone. The scenario table
// lists the keys each writes, and main prints whether the transaction
// failed and how many of the keys were written, so the tests can tell a
// refused transaction (go-redis v9.11+: ErrCrossSlot, nothing written) from
// a split one (before v9.11: no error, every key written, not atomically).
//
// The same source builds against go-redis v9.23.0 (go.mod) and v9.10.0
// (go.v910.mod, with -modfile).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/redis/go-redis/v9"

	"example.com/tx/visits"
)

func badTxPipelined(ctx context.Context, rdb *redis.ClusterClient) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:1:visits")
		p.Incr(ctx, "user:2:visits")
		return nil
	})
	return err
}

func goodTxPipelined(ctx context.Context, rdb *redis.ClusterClient) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "user:{1}:visits")
		p.Ping(ctx)
		p.Incr(ctx, "user:{1}:logins")
		return nil
	})
	return err
}

func badTxPipeline(ctx context.Context, rdb *redis.ClusterClient) error {
	pipe := rdb.TxPipeline()
	pipe.Set(ctx, "cart:7", "x", 0)
	pipe.Set(ctx, "orders:7", "y", 0)
	_, err := pipe.Exec(ctx)
	return err
}

func goodTxPipeline(ctx context.Context, rdb *redis.ClusterClient) error {
	pipe := rdb.TxPipeline()
	pipe.Set(ctx, "{shop:7}:cart", "x", 0)
	pipe.Set(ctx, "{shop:7}:orders", "y", 0)
	_, err := pipe.Exec(ctx)
	return err
}

func badTxHelper(ctx context.Context, rdb *redis.ClusterClient) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		visits.Count(ctx, p, 1)
		visits.Count(ctx, p, 2)
		return nil
	})
	return err
}

func goodPlainPipeline(ctx context.Context, rdb *redis.ClusterClient) error {
	_, err := rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "page:1:views")
		p.Incr(ctx, "page:2:views")
		return nil
	})
	return err
}

// badWatchOtherSlot watches "a" (slot 15495) and reads "b" (slot 3300): on a
// cluster whose nodes own those slots apart, the read fails with MOVED.
func badWatchOtherSlot(ctx context.Context, rdb *redis.ClusterClient) error {
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Get(ctx, "b").Err(); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "a", "1", 0)
			return nil
		})
		return err
	}, "a")
	return err
}

func goodWatchSameTag(ctx context.Context, rdb *redis.ClusterClient) error {
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Get(ctx, "{acct:9}:balance").Err(); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "{acct:9}:balance", "10", 0)
			p.Set(ctx, "{acct:9}:log", "set", 0)
			return nil
		})
		return err
	}, "{acct:9}:balance")
	return err
}

// scenarios lists each transaction with the keys it writes.
var scenarios = []struct {
	name string
	run  func(context.Context, *redis.ClusterClient) error
	keys []string
}{
	{"badTxPipelined", badTxPipelined, []string{"user:1:visits", "user:2:visits"}},
	{"goodTxPipelined", goodTxPipelined, []string{"user:{1}:visits", "user:{1}:logins"}},
	{"badTxPipeline", badTxPipeline, []string{"cart:7", "orders:7"}},
	{"goodTxPipeline", goodTxPipeline, []string{"{shop:7}:cart", "{shop:7}:orders"}},
	{"badTxHelper", badTxHelper, []string{visits.Key(1), visits.Key(2)}},
	{"goodPlainPipeline", goodPlainPipeline, []string{"page:1:views", "page:2:views"}},
	{"badWatchOtherSlot", badWatchOtherSlot, []string{"a"}},
	{"goodWatchSameTag", goodWatchSameTag, []string{"{acct:9}:balance", "{acct:9}:log"}},
}

// main prints, per scenario: name, "ok" or "error", keys written of keys
// touched, and the error.
func main() {
	addr := flag.String("addr", "", "a Redis Cluster node, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: tx -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})
	defer rdb.Close()
	for _, s := range scenarios {
		for _, k := range s.keys {
			rdb.Del(ctx, k)
		}
		err := s.run(ctx, rdb)
		written := 0
		for _, k := range s.keys {
			if n, _ := rdb.Exists(ctx, k).Result(); n == 1 {
				written++
			}
		}
		result := "ok"
		if err != nil {
			result = "error"
		}
		fmt.Printf("%s\t%s\t%d/%d\t%v\n", s.name, result, written, len(s.keys), err)
	}
}
