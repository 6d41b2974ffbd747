// Package legacy runs the analyzer on the real go-redis v8, v7 and v6 APIs:
// the rules name parameters, so the same table must find the keys of calls
// with a context first (v8) and without (v7, v6). A line that must be reported ends
// with "// reported: CHECK"; every other line must not be.
package legacy

import (
	"context"

	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
)

func v8Calls(ctx context.Context, rdb *redis8.ClusterClient, u redis8.UniversalClient, one *redis8.Client) {
	rdb.MGet(ctx, "user:1:a", "user:2:a") // reported: crossslot
	rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")
	u.Rename(ctx, "src", "dst")                                                       // reported: crossslot
	rdb.SUnionStore(ctx, "dst", "s1", "s2")                                           // reported: crossslot
	u.Eval(ctx, "return 1", []string{"lock:a", "lock:b"})                             // reported: crossslot
	rdb.ZUnionStore(ctx, "out", &redis8.ZStore{Keys: []string{"rank:eu", "rank:us"}}) // reported: crossslot
	rdb.Do(ctx, "MGET", "inv:1", "inv:2")                                             // reported: crossslot
	rdb.Watch(ctx, func(*redis8.Tx) error { return nil }, "w:1", "w:2")               // reported: crossslot
	rdb.MSet(ctx, "session:a", "1", "session:b", "2")                                 // reported: crossslot
	rdb.Get(ctx, "user:{}:a")                                                         // reported: emptytag
	one.MGet(ctx, "user:1:a", "user:2:a")
	pipe := rdb.Pipeline()
	pipe.Del(ctx, "cart:1", "orders:1") // reported: crossslot
}

func v7Calls(rdb *redis7.ClusterClient, u redis7.UniversalClient, one *redis7.Client) {
	rdb.MGet("user:1:a", "user:2:a") // reported: crossslot
	rdb.MGet("user:{1}:a", "user:{1}:b")
	u.Rename("src", "dst")                                                       // reported: crossslot
	rdb.SUnionStore("dst", "s1", "s2")                                           // reported: crossslot
	u.Eval("return 1", []string{"lock:a", "lock:b"})                             // reported: crossslot
	rdb.ZUnionStore("out", &redis7.ZStore{Keys: []string{"rank:eu", "rank:us"}}) // reported: crossslot
	rdb.Do("MGET", "inv:1", "inv:2")                                             // reported: crossslot
	rdb.Watch(func(*redis7.Tx) error { return nil }, "w:1", "w:2")               // reported: crossslot
	rdb.MSet("session:a", "1", "session:b", "2")                                 // reported: crossslot
	rdb.Get("user:{1:a")                                                         // reported: unclosedtag
	one.MGet("user:1:a", "user:2:a")
	pipe := rdb.Pipeline()
	pipe.Del("cart:1", "orders:1") // reported: crossslot
}

func v7WithContext(ctx context.Context, rdb *redis7.ClusterClient) {
	rdb.DoContext(ctx, "MGET", "inv:1", "inv:2")                               // reported: crossslot
	rdb.WatchContext(ctx, func(*redis7.Tx) error { return nil }, "w:1", "w:2") // reported: crossslot
	rdb.WithContext(ctx).MGet("user:1:a", "user:2:a")                          // reported: crossslot
}

// Scripts on the context-free signatures.
func scripts(ctx context.Context, r8 *redis8.ClusterClient, r7 *redis7.ClusterClient, r6 *redis6.ClusterClient) {
	redis8.NewScript("return 1").Run(ctx, r8, []string{"s:1", "s:2"}) // reported: crossslot
	redis7.NewScript("return 1").Run(r7, []string{"s:1", "s:2"})      // reported: crossslot
	redis6.NewScript("return 1").Run(r6, []string{"s:1", "s:2"})      // reported: crossslot
	redis7.NewScript("return 1").Run(r7, []string{"{s}1", "{s}2"})
	r7.EvalSha("sha", []string{"s:1", "s:2"}) // reported: crossslot
}

func v6Calls(rdb *redis6.ClusterClient, u redis6.UniversalClient) {
	rdb.MGet("user:1:a", "user:2:a") // reported: crossslot
	rdb.MGet("user:{1}:a", "user:{1}:b")
	u.Rename("src", "dst")                                         // reported: crossslot
	u.Eval("return 1", []string{"lock:a", "lock:b"})               // reported: crossslot
	rdb.Do("MGET", "inv:1", "inv:2")                               // reported: crossslot
	rdb.Watch(func(*redis6.Tx) error { return nil }, "w:1", "w:2") // reported: crossslot
	rdb.Get("user:{}:a")                                           // reported: emptytag
}

// Transactions: v8, v7 and v6 split a cluster transaction per slot.
func transactions(ctx context.Context, r8 *redis8.ClusterClient, r7 *redis7.ClusterClient, r6 *redis6.ClusterClient) {
	r8.TxPipelined(ctx, func(p redis8.Pipeliner) error {
		p.Incr(ctx, "a")
		p.Incr(ctx, "b") // reported: crossslot
		return nil
	})
	r8.TxPipelined(ctx, func(p redis8.Pipeliner) error {
		p.Incr(ctx, "{a}1")
		p.Incr(ctx, "{a}2")
		return nil
	})
	pipe := r8.TxPipeline()
	pipe.Incr(ctx, "a")
	pipe.Incr(ctx, "b") // reported: crossslot
	pipe.Exec(ctx)
	r7.TxPipelined(func(p redis7.Pipeliner) error {
		p.Incr("a")
		p.Incr("b") // reported: crossslot
		return nil
	})
	r6.TxPipelined(func(p redis6.Pipeliner) error {
		p.Incr("a")
		p.Incr("b") // reported: crossslot
		return nil
	})
	r8.Watch(ctx, func(tx *redis8.Tx) error {
		tx.Get(ctx, "b") // reported: crossslot
		return nil
	}, "a")
}
