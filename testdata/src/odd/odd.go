// Package odd is a corpus of unusual but valid code around go-redis calls.
// The analyzer must neither panic on it (tests turn its recover off) nor
// report anything it cannot prove; the few lines it can prove say so.
package odd

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

type client interface{ redis.UniversalClient }

func generic[C redis.Cmdable](ctx context.Context, c C, keys ...string) {
	c.MGet(ctx, keys...)
	c.MGet(ctx, "user:1:a", "user:2:a") // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
}

func methodValues(ctx context.Context, rdb *redis.ClusterClient) {
	mget := rdb.MGet
	mget(ctx, "user:1:a", "user:2:a") // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
	f := (*redis.ClusterClient).Del
	f(rdb, ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	defer rdb.Del(ctx, "x")
	go rdb.Get(ctx, "y")
}

func oddArguments(ctx context.Context, rdb redis.UniversalClient, n int, args []interface{}, v interface{}) {
	rdb.MGet(ctx)
	rdb.MGet(ctx, []string(nil)...)
	rdb.MGet(ctx, make([]string, n)...)
	rdb.MSet(ctx)
	rdb.MSet(ctx, "lonely")
	rdb.MSet(ctx, "a", 1, "b")
	rdb.MSet(ctx, args...)
	rdb.MSet(ctx, v)
	rdb.MSet(ctx, map[string]interface{}{})
	rdb.MSet(ctx, map[int]string{1: "a", 2: "b"})
	rdb.MSet(ctx, struct{}{})
	rdb.Do(ctx)
	rdb.Do(ctx, 42, "a", "b")
	rdb.Do(ctx, "MGET")
	rdb.Do(ctx, "EVAL", "return 1", "x", "a", "b")
	rdb.Do(ctx, "EVAL", "return 1", -1, "a", "b")
	rdb.Do(ctx, "EVAL", "return 1", 5, "a", "b")
	rdb.Do(ctx, args...)
	rdb.Eval(ctx, "return 1", nil)
	rdb.Eval(ctx, "return 1", []string{})
	rdb.ZUnion(ctx, redis.ZStore{})
	rdb.ZInterStore(ctx, "dst", nil)
	rdb.LCS(ctx, nil)
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"s1"}})
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"s1", "s2", "0"}})
	rdb.Get(ctx, "")
	rdb.Get(ctx, "{")  // want `Get key "\{" has a '\{' with no '\}' after it`
	rdb.Get(ctx, "}{") // want `Get key "\}\{" has a '\{' with no '\}' after it`
	rdb.Get(ctx, "\xff{\x00}")
	rdb.MGet(ctx, "", "") // the empty key twice: one slot
}

func oddKeys(ctx context.Context, rdb redis.UniversalClient, b []byte, r rune, s fmt.Stringer, p *string) {
	rdb.MGet(ctx, string(b), string(b))
	rdb.MGet(ctx, string(r), "x")
	rdb.MGet(ctx, s.String(), "x")
	rdb.MGet(ctx, *p, "x")
	rdb.MGet(ctx, fmt.Sprintf("%*d", 5, 1), "x")
	rdb.MGet(ctx, fmt.Sprintf("%!", 1), "x")
	rdb.MGet(ctx, fmt.Sprintf("%[3]d", 1), "x")
	rdb.MGet(ctx, fmt.Sprintf("%d %d", 1), "x")
	rdb.MGet(ctx, fmt.Sprint("a", 1), "x")     // want `MGet keys "a1" \(slot 7785\) and "x" \(slot 16287\)`
	rdb.MGet(ctx, strings.Join(nil, ":"), "x") // want `MGet keys "" \(slot 0\) and "x" \(slot 16287\)`
	rdb.MGet(ctx, strings.Repeat("a", 3), "x") // want `MGet keys "aaa" \(slot 10439\) and "x" \(slot 16287\)`
	var keys [2]string
	keys[0], keys[1] = "a", "b"
	rdb.MGet(ctx, keys[:]...) // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	for i := 0; i < 3; i++ {
		k := "k"
		for j := 0; j < i; j++ {
			k += k
		}
		rdb.MGet(ctx, k, "other")
	}
}

func recursive(ctx context.Context, rdb redis.UniversalClient, k string, n int) {
	if n > 0 {
		recursive(ctx, rdb, k+":x", n-1)
	}
	rdb.MGet(ctx, k, "z")
}

func interfaces(ctx context.Context, c client, tx *redis.Tx, script *redis.Script) {
	c.MGet(ctx, "{t}:a", "{t}:b")
	tx.Watch(ctx)
	tx.Watch(ctx, "w:1", "w:2") // want `Watch keys "w:1" \(slot 4532\) and "w:2" \(slot 8663\)`
	script.Run(ctx, c, nil)
	var nilScript *redis.Script
	nilScript.Run(ctx, c, []string{"{a}", "{a}:b"})
}

// Builders and wrappers that call themselves, each other, or go through
// values: no summary where it cannot be had, and no panic.
func loopKey(n int) string {
	if n == 0 {
		return "k"
	}
	return loopKey(n-1) + ":x"
}

func pingPong(ctx context.Context, rdb redis.UniversalClient, a string, n int) {
	if n > 0 {
		pongPing(ctx, rdb, a, n-1)
	}
	rdb.MGet(ctx, a, "pp")
}

func pongPing(ctx context.Context, rdb redis.UniversalClient, a string, n int) {
	pingPong(ctx, rdb, a, n)
}

func throughValues(ctx context.Context, rdb redis.UniversalClient) {
	rdb.MGet(ctx, loopKey(1), loopKey(2))
	f := loopKey
	rdb.MGet(ctx, f(1), f(2))
	pingPong(ctx, rdb, "{pp}", 1)
	pingPong(ctx, rdb, "zz", 1) // want `MGet keys "zz" \(slot \d+\) and "pp" \(slot \d+\) are on different hash slots in pingPong`
	g := pingPong
	g(ctx, rdb, "zz", 1)                     // want `in pingPong`
	func() { pingPong(ctx, rdb, "zz", 0) }() // want `in pingPong`
	var keys []string
	for _, k := range keys {
		keys = append(keys, k)
	}
	rdb.Del(ctx, keys...)
	self := []string{"a"}
	self = append(self, self...)
	rdb.Del(ctx, self...)
	rdb.Del(ctx, variadicSelf()...)
}

func variadicSelf(parts ...string) []string { return append(parts, parts...) }
