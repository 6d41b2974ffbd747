// Command shop is crossslot's bundled example: a small service's Redis
// calls, some of which cross hash slots. Functions named bad* are ones the
// analyzer must report and a cluster must reject with CROSSSLOT; good* ones
// it must leave alone and a cluster must accept. Run against a cluster with
// -addr to see which is which (crossslot's ground-truth test does).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/redis/go-redis/v9"
)

func profileKey(id int) string { return fmt.Sprintf("user:{%d}:profile", id) }

func badMGetTwoUsers(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, "user:1:a", "user:2:a").Err()
}

func goodMGetOneTag(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, "user:{1}:a", "user:{1}:b").Err()
}

func badDelCartAndOrders(ctx context.Context, rdb *redis.ClusterClient) error {
	const cart, orders = "cart:42", "orders:42"
	return rdb.Del(ctx, cart, orders).Err()
}

func goodDelSprintf(ctx context.Context, rdb *redis.ClusterClient) error {
	id := 42
	return rdb.Del(ctx, fmt.Sprintf("cart:{%d}", id), fmt.Sprintf("orders:{%d}", id)).Err()
}

func badMSetPairs(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MSet(ctx, "session:a", "1", "session:b", "2").Err()
}

func goodMSetPairs(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MSet(ctx, "session:{a}:1", "1", "session:{a}:2", "2").Err()
}

func badRenameAcrossSlots(ctx context.Context, rdb *redis.ClusterClient) error {
	if err := rdb.Set(ctx, "report:today", "x", 0).Err(); err != nil {
		return err
	}
	return rdb.Rename(ctx, "report:today", "report:yesterday").Err()
}

func goodRenameSameTag(ctx context.Context, rdb *redis.ClusterClient) error {
	if err := rdb.Set(ctx, "report:{daily}:today", "x", 0).Err(); err != nil {
		return err
	}
	return rdb.Rename(ctx, "report:{daily}:today", "report:{daily}:yesterday").Err()
}

func badSUnionStore(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.SUnionStore(ctx, "tags:all", "tags:a", "tags:b").Err()
}

func goodSUnionStore(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.SUnionStore(ctx, "{tags}:all", "{tags}:a", "{tags}:b").Err()
}

func badEvalKeys(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.Eval(ctx, "return #KEYS", []string{"lock:a", "lock:b"}).Err()
}

func goodEvalKeys(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.Eval(ctx, "return #KEYS", []string{profileKey(7), "user:{7}:settings"}).Err()
}

func badRawDo(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Do(ctx, "EXISTS", "inventory:1", "inventory:2").Err()
}

func goodRawDo(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Do(ctx, "EXISTS", "inventory:{1}:a", "inventory:{1}:b").Err()
}

func badPhiBranch(ctx context.Context, rdb redis.UniversalClient) error {
	dst := "stats:week"
	if len(os.Args) > 5 {
		dst = "stats:month"
	}
	return rdb.Rename(ctx, "stats:day", dst).Err()
}

func goodUnknownIDs(ctx context.Context, rdb redis.UniversalClient) error {
	id := strconv.Itoa(len(os.Args))
	return rdb.MGet(ctx, "user:{"+id+"}:a", fmt.Sprintf("user:{%s}:b", id)).Err()
}

func badStructKeys(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.ZUnion(ctx, redis.ZStore{Keys: []string{"rank:eu", "rank:us"}}).Err()
}

// One user's profile and settings: the suggested fix tags both with {user:1}.
func badProfileAndSettings(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, "user:1:profile", "user:1:settings").Err()
}

// Malformed tags: a cluster accepts them, but they do not do what the author meant.
func tagMistakes(ctx context.Context, rdb redis.UniversalClient) error {
	rdb.Get(ctx, "user:{}:profile")
	rdb.Get(ctx, "user:{1}:{profile}")
	return rdb.Get(ctx, "user:{1:profile").Err()
}

type scenario struct {
	name string
	run  func(context.Context, *redis.ClusterClient) error
}

func universal(f func(context.Context, redis.UniversalClient) error) func(context.Context, *redis.ClusterClient) error {
	return func(ctx context.Context, c *redis.ClusterClient) error { return f(ctx, c) }
}

var scenarios = []scenario{
	{"badMGetTwoUsers", universal(badMGetTwoUsers)},
	{"goodMGetOneTag", universal(goodMGetOneTag)},
	{"badDelCartAndOrders", badDelCartAndOrders},
	{"goodDelSprintf", goodDelSprintf},
	{"badMSetPairs", universal(badMSetPairs)},
	{"goodMSetPairs", universal(goodMSetPairs)},
	{"badRenameAcrossSlots", badRenameAcrossSlots},
	{"goodRenameSameTag", goodRenameSameTag},
	{"badSUnionStore", universal(badSUnionStore)},
	{"goodSUnionStore", universal(goodSUnionStore)},
	{"badEvalKeys", universal(badEvalKeys)},
	{"goodEvalKeys", universal(goodEvalKeys)},
	{"badRawDo", badRawDo},
	{"goodRawDo", goodRawDo},
	{"badPhiBranch", universal(badPhiBranch)},
	{"goodUnknownIDs", universal(goodUnknownIDs)},
	{"badStructKeys", universal(badStructKeys)},
	{"badProfileAndSettings", universal(badProfileAndSettings)},
}

func main() {
	addr := flag.String("addr", "", "a Redis Cluster node, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: shop -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})
	defer rdb.Close()
	for _, s := range scenarios {
		if err := s.run(ctx, rdb); err != nil && err != redis.Nil {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\n", s.name)
		}
	}
}
