package travel

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"travel/keys"
)

func slices(ctx context.Context, rdb *redis.ClusterClient, v string, ids []int) {
	// A literal also ranged over and indexed: only a write would make its
	// elements unknown.
	both := []string{"a:1", "a:2"}
	for _, k := range both {
		rdb.Set(ctx, k, v, 0)
	}
	_ = both[0]
	rdb.Del(ctx, both...) // want `Del keys "a:1" \(slot \d+\) and "a:2" \(slot \d+\) are on different hash slots`

	written := []string{"a:1", "a:2"}
	written[1] = "{a:1}x"
	rdb.Del(ctx, written...)

	// Appended in straight-line code.
	var lines []string
	lines = append(lines, "line:1")
	lines = append(lines, "line:2")
	rdb.MGet(ctx, lines...) // want `MGet keys "line:1" \(slot \d+\) and "line:2" \(slot \d+\)`

	tagged := make([]string, 0, 2)
	tagged = append(tagged, "{line}:1", "{line}:2")
	rdb.MGet(ctx, tagged...)

	// Appended in a loop over a literal.
	var items []string
	for _, id := range []int{1, 2, 3} {
		items = append(items, fmt.Sprintf("item:%d:price", id))
	}
	rdb.MGet(ctx, items...) // want `MGet keys "item:1:price" \(slot \d+\) and "item:2:price" \(slot \d+\)`

	var built []string
	for _, id := range []int{1, 2} {
		built = append(built, accountKey(id))
	}
	rdb.MGet(ctx, built...) // want `MGet keys "account:1" \(slot \d+\) and "account:2" \(slot \d+\)`

	var sameItem []string
	for _, id := range []int{1, 2} {
		sameItem = append(sameItem, fmt.Sprintf("item:{7}:%d", id))
	}
	rdb.MGet(ctx, sameItem...)

	// A loop over input: one key per element, a family whose slots differ
	// from one element to the next.
	var fromInput []string
	for _, id := range ids {
		fromInput = append(fromInput, fmt.Sprintf("item:%d:price", id))
	}
	rdb.MGet(ctx, fromInput...) // want `MGet keys "item:<id>:price" for two different elements of ids are on different hash slots for all but about 1 in 16384 pairs of them`

	// A loop that appends on one path only: not followed.
	var some []string
	for _, id := range []int{1, 2} {
		if id > len(v) {
			some = append(some, fmt.Sprintf("item:%d", id))
		}
	}
	rdb.MGet(ctx, some...)

	// Two appends to one slice may share its array.
	base := make([]string, 1, 4)
	x := append(base, "x:1")
	y := append(base, "y:1")
	rdb.MGet(ctx, x...)
	rdb.MGet(ctx, y...)

	// A string built in a loop over a literal.
	k := "seg"
	for _, s := range []string{":a", ":b"} {
		k += s
	}
	rdb.MGet(ctx, k, "seg:a") // want `MGet keys "seg:a:b" \(slot \d+\) and "seg:a" \(slot \d+\)`
}

func variadicBuilders(ctx context.Context, rdb *redis.ClusterClient, r *Repo, id int) {
	rdb.Rename(ctx, r.join("old"), r.join("new"))                        // want `Rename keys "billing:old" \(slot \d+\) and "billing:new" \(slot \d+\)`
	rdb.Rename(ctx, r.join("{t}", "old"), r.join("{t}", "new"))          // one tag: silent
	rdb.Rename(ctx, keys.Join("a", "b"), keys.Join("a", "c"))            // want `Rename keys "a:b" \(slot \d+\) and "a:c" \(slot \d+\)`
	rdb.Rename(ctx, keys.Cat("x", "1"), keys.Cat("x", "2"))              // want `Rename keys "billing:x1" \(slot \d+\) and "billing:x2" \(slot \d+\)`
	rdb.Del(ctx, keys.Family(7)...)                                      // want `Del keys "order:7:items" \(slot \d+\) and "order:7:total" \(slot \d+\)`
	rdb.Del(ctx, keys.Family(id)...)                                     // want `Del keys "order:<id>:items" and "order:<id>:total" are on different hash slots for every value of id`
	rdb.Del(ctx, keysFor(1)...)                                          // want `Del keys "cart:1" \(slot \d+\) and "wish:1" \(slot \d+\)`
	rdb.Del(ctx, keysFor(id)...)                                         // want `Del keys "cart:<id>" and "wish:<id>" are on different hash slots for all but about 1 in 16384 values of id`
	rdb.Rename(ctx, keys.Join(fmt.Sprint(id), "b"), keys.Join("a", "b")) // want `Rename keys "<fmt.Sprint\(id\)>:b" and "a:b" are on different hash slots for all but about 1 in 16384 values of fmt.Sprint\(id\)`
}

// join concatenates the repo's namespace and parts.
func (r *Repo) join(parts ...string) string {
	k := r.ns
	for _, p := range parts {
		k += p
	}
	return k
}

func keysFor(id int) []string {
	return []string{fmt.Sprintf("cart:%d", id), fmt.Sprintf("wish:%d", id)}
}

func generics(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, keys.Tagged("a", 1), keys.Tagged("b", "s")) // want `MGet keys "\{a\}:x" \(slot \d+\) and "\{b\}:x" \(slot \d+\)`
	rdb.MGet(ctx, keys.Tagged("a", 1), keys.Tagged("a", 2.5))
	rdb.MGet(ctx, keys.Generic("a", id), keys.Generic("b", id))      // want `MGet keys "a:<id>" and "b:<id>" are on different hash slots for all but about 1 in 16384 values of id`
	rdb.MGet(ctx, localGeneric("x", 1), localGeneric("y", int64(1))) // want `MGet keys "x:1" \(slot \d+\) and "y:1" \(slot \d+\)`
}

func localGeneric[T ~int | ~int64](p string, id T) string { return fmt.Sprintf("%s:%d", p, id) }
