// Command ring runs multi-key commands, transactions and keyspace-wide
// commands on go-redis's Ring of two plain servers. Functions named bad*
// are ones crossslot must report (check ringshard, or onenode for a
// command without keys, which the Ring sends to one shard); good* ones it
// must leave alone. Each returns what went
// wrong on the live Ring, "" when nothing did: a key read as missing, a key
// written on another shard than its own (so the Ring never finds it), a
// transaction whose keys were committed on two servers (one MULTI/EXEC per
// shard), a count or a listing of one shard's keys. main prints one line per scenario: name, ok or wrong, detail.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

func badMGet(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:1:name", "user:3:name")
	vals, err := ring.MGet(ctx, "user:1:name", "user:3:name").Result()
	return missing(vals, err)
}

func goodMGet(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:{1}:name", "user:{1}:mail")
	vals, err := ring.MGet(ctx, "user:{1}:name", "user:{1}:mail").Result()
	return missing(vals, err)
}

func badMSet(ctx context.Context, ring *redis.Ring) string {
	if err := ring.MSet(ctx, "cart:1", "a", "cart:2", "b").Err(); err != nil {
		return err.Error()
	}
	return unreadable(ctx, ring, "cart:1", "cart:2")
}

func goodMSet(ctx context.Context, ring *redis.Ring) string {
	if err := ring.MSet(ctx, "cart:{1}:a", "a", "cart:{1}:b", "b").Err(); err != nil {
		return err.Error()
	}
	return unreadable(ctx, ring, "cart:{1}:a", "cart:{1}:b")
}

func badRename(ctx context.Context, ring *redis.Ring, id string) string {
	set(ctx, ring, "sess:"+id)
	if err := ring.Rename(ctx, "sess:"+id, "sess:"+id+":old").Err(); err != nil {
		return err.Error()
	}
	return unreadable(ctx, ring, "sess:"+id+":old")
}

func goodRename(ctx context.Context, ring *redis.Ring, id string) string {
	set(ctx, ring, "sess:{"+id+"}")
	if err := ring.Rename(ctx, "sess:{"+id+"}", "sess:{"+id+"}:old").Err(); err != nil {
		return err.Error()
	}
	return unreadable(ctx, ring, "sess:{"+id+"}:old")
}

func badTxPipelined(ctx context.Context, ring *redis.Ring) string {
	_, err := ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "order:1:count")
		p.Incr(ctx, "order:4:count")
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return committedApart(ctx, ring, "order:1:count", "order:4:count")
}

func goodTxPipelined(ctx context.Context, ring *redis.Ring) string {
	_, err := ring.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "order:{1}:count")
		p.Incr(ctx, "order:{1}:total")
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return committedApart(ctx, ring, "order:{1}:count", "order:{1}:total")
}

func goodPipelined(ctx context.Context, ring *redis.Ring) string {
	_, err := ring.Pipelined(ctx, func(p redis.Pipeliner) error { // each command to its own shard
		p.Set(ctx, "user:1:name", "x", 0)
		p.Set(ctx, "user:3:name", "y", 0)
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return unreadable(ctx, ring, "user:1:name", "user:3:name")
}

func badWatch(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "stock:1", "stock:4")
	var got string
	err := ring.Watch(ctx, func(tx *redis.Tx) error {
		got = tx.Get(ctx, "stock:4").Val()
		return nil
	}, "stock:1")
	if err != nil {
		return err.Error()
	}
	if got == "" {
		return "stock:4 read as missing"
	}
	return ""
}

func goodWatch(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "stock:{1}:qty", "stock:{1}:held")
	var got string
	err := ring.Watch(ctx, func(tx *redis.Tx) error {
		got = tx.Get(ctx, "stock:{1}:held").Val()
		return nil
	}, "stock:{1}:qty")
	if err != nil {
		return err.Error()
	}
	if got == "" {
		return "stock:{1}:held read as missing"
	}
	return ""
}

func badEval(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "quota:1", "quota:3")
	vals, err := ring.Eval(ctx, "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}", []string{"quota:1", "quota:3"}).Slice()
	return missing(vals, err)
}

func goodEval(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "quota:{1}:a", "quota:{1}:b")
	vals, err := ring.Eval(ctx, "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}", []string{"quota:{1}:a", "quota:{1}:b"}).Slice()
	return missing(vals, err)
}

func badUniversal(ctx context.Context, ring *redis.Ring) string {
	var u redis.UniversalClient = ring
	set(ctx, ring, "user:1:name", "user:3:name")
	vals, err := u.MGet(ctx, "user:1:name", "user:3:name").Result()
	return missing(vals, err)
}

func badDBSize(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:1:name", "user:3:name")
	if n := ring.DBSize(ctx).Val(); n != 2 {
		return fmt.Sprintf("DBSIZE counted %d of 2 keys: one shard's", n)
	}
	return ""
}

func badKeys(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:1:name", "user:3:name")
	if keys := ring.Keys(ctx, "user:*").Val(); len(keys) != 2 {
		return fmt.Sprintf("KEYS found %d of 2 keys: one shard's", len(keys))
	}
	return ""
}

func badEvalKeys(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:1:name", "user:3:name")
	n, err := ring.Eval(ctx, "return #redis.call('KEYS', 'user:*')", []string{"{u}:n"}).Int()
	if err != nil {
		return err.Error()
	}
	if n != 2 {
		return fmt.Sprintf("the script's KEYS found %d of 2 keys: its shard's", n)
	}
	return ""
}

func goodKeys(ctx context.Context, ring *redis.Ring) string {
	set(ctx, ring, "user:1:name", "user:3:name")
	var mu sync.Mutex
	found := 0
	err := ring.ForEachShard(ctx, func(ctx context.Context, c *redis.Client) error {
		keys, err := c.Keys(ctx, "user:*").Result()
		mu.Lock()
		found += len(keys)
		mu.Unlock()
		return err
	})
	if err != nil {
		return err.Error()
	}
	if found != 2 {
		return fmt.Sprintf("KEYS on each shard found %d of 2 keys", found)
	}
	return ""
}

// set writes each key through the Ring, on its own shard.
func set(ctx context.Context, ring *redis.Ring, keys ...string) {
	for _, k := range keys {
		if err := ring.Set(ctx, k, "v", 0).Err(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// missing says which values of an MGET came back nil.
func missing(vals []interface{}, err error) string {
	if err != nil {
		return err.Error()
	}
	for i, v := range vals {
		if v == nil {
			return fmt.Sprintf("value %d read as missing", i+1)
		}
	}
	return ""
}

// unreadable says which keys the Ring does not find on their own shard.
func unreadable(ctx context.Context, ring *redis.Ring, keys ...string) string {
	for _, k := range keys {
		if ring.Exists(ctx, k).Val() == 0 {
			return k + " was written on another shard than its own"
		}
	}
	return ""
}

// committedApart says whether a transaction's keys sit on two servers: one
// MULTI/EXEC runs on one server, so the Ring ran one per shard.
func committedApart(ctx context.Context, ring *redis.Ring, keys ...string) string {
	servers := map[string]bool{}
	for _, k := range keys {
		c, err := ring.GetShardClientForKey(k)
		if err != nil {
			return err.Error()
		}
		if c.Exists(ctx, k).Val() == 1 {
			servers[c.Options().Addr] = true
		}
	}
	if len(servers) > 1 {
		return fmt.Sprintf("committed on %d servers: one MULTI/EXEC per shard", len(servers))
	}
	return ""
}

func main() {
	addrs := flag.String("addrs", "", "two plain Redis servers, host:port,host:port")
	flag.Parse()
	a := strings.Split(*addrs, ",")
	if len(a) != 2 {
		fmt.Fprintln(os.Stderr, "ring: -addrs wants two servers")
		os.Exit(2)
	}
	ctx := context.Background()
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"shard1": a[0], "shard2": a[1]}})
	defer ring.Close()
	scenarios := []struct {
		name string
		run  func() string
	}{
		{"badMGet", func() string { return badMGet(ctx, ring) }},
		{"goodMGet", func() string { return goodMGet(ctx, ring) }},
		{"badMSet", func() string { return badMSet(ctx, ring) }},
		{"goodMSet", func() string { return goodMSet(ctx, ring) }},
		{"badRename", func() string { return badRename(ctx, ring, "8") }},
		{"goodRename", func() string { return goodRename(ctx, ring, "7") }},
		{"badTxPipelined", func() string { return badTxPipelined(ctx, ring) }},
		{"goodTxPipelined", func() string { return goodTxPipelined(ctx, ring) }},
		{"goodPipelined", func() string { return goodPipelined(ctx, ring) }},
		{"badWatch", func() string { return badWatch(ctx, ring) }},
		{"goodWatch", func() string { return goodWatch(ctx, ring) }},
		{"badEval", func() string { return badEval(ctx, ring) }},
		{"goodEval", func() string { return goodEval(ctx, ring) }},
		{"badUniversal", func() string { return badUniversal(ctx, ring) }},
		{"badDBSize", func() string { return badDBSize(ctx, ring) }},
		{"badKeys", func() string { return badKeys(ctx, ring) }},
		{"goodKeys", func() string { return goodKeys(ctx, ring) }},
		{"badEvalKeys", func() string { return badEvalKeys(ctx, ring) }},
	}
	for _, s := range scenarios {
		if err := ring.ForEachShard(ctx, func(ctx context.Context, c *redis.Client) error { return c.FlushDB(ctx).Err() }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		result, detail := "ok", s.run()
		if detail != "" {
			result = "wrong"
		}
		fmt.Printf("%s\t%s\t%s\n", s.name, result, detail)
	}
}
