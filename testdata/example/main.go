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

	"example.com/shop/keys"
	"example.com/shop/store"
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

// Keys built elsewhere: in a builder package, a local builder, a field set
// once, a package variable, a loop; and passed through wrappers.

func badBuilderPackage(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.Del(ctx, keys.Cart(7), keys.Orders(7)).Err()
}

func goodBuilderPackage(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, keys.Profile(7), keys.Settings(7)).Err()
}

func itemKey(id int) string { return fmt.Sprintf("item:%d:price", id) }

func badLocalBuilder(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, itemKey(1), itemKey(2)).Err()
}

// repo keeps its namespace in a field that only its constructor sets.
type repo struct {
	rdb redis.UniversalClient
	ns  string
}

func newRepo(rdb redis.UniversalClient) *repo { return &repo{rdb: rdb, ns: keys.Namespace} }

func (r *repo) key(name string) string { return r.ns + name }

func badMethodField(ctx context.Context, rdb redis.UniversalClient) error {
	r := newRepo(rdb)
	return r.rdb.MGet(ctx, r.key("stock:1"), r.key("stock:2")).Err()
}

func goodMethodField(ctx context.Context, rdb redis.UniversalClient) error {
	r := newRepo(rdb)
	return r.rdb.MGet(ctx, r.key("{stock}:1"), r.key("{stock}:2")).Err()
}

var auditLog = "audit:all"

func badPackageVariable(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.SUnionStore(ctx, auditLog, "audit:old").Err()
}

func badLoopKeys(ctx context.Context, rdb redis.UniversalClient) error {
	var ks []string
	for _, id := range []int{3, 4, 5} {
		ks = append(ks, itemKey(id))
	}
	return rdb.MGet(ctx, ks...).Err()
}

func goodLoopKeys(ctx context.Context, rdb redis.UniversalClient) error {
	var ks []string
	for _, part := range []string{"a", "b"} {
		ks = append(ks, keys.Join("{items}", part))
	}
	return rdb.MGet(ctx, ks...).Err()
}

func badWrapper(ctx context.Context, rdb redis.UniversalClient) error {
	return store.Pair(ctx, rdb, "doc:1", "doc:2")
}

func goodWrapper(ctx context.Context, rdb redis.UniversalClient) error {
	return store.Pair(ctx, rdb, "{doc}:1", "{doc}:2")
}

func badWrapperVariadic(ctx context.Context, rdb redis.UniversalClient) error {
	return store.DelAll(ctx, rdb, keys.Cart(1), keys.Cart(2))
}

func badWrapperDerivedKey(ctx context.Context, rdb redis.UniversalClient) error {
	return store.Archive(ctx, rdb, "report:1")
}

func goodWrapperDerivedKey(ctx context.Context, rdb redis.UniversalClient) error {
	return store.Archive(ctx, rdb, "{report:1}")
}

// Key families without a tag, with ids known only at run time: order:id:items
// and order:id:total are on different slots for every id (CRC16 is linear);
// user:id:profile and user:id:settings for all but about 1 in 16384 ids.

func badTemplateFamily(ctx context.Context, rdb redis.UniversalClient) error {
	id := len(os.Args)
	return rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id)).Err()
}

func badNearSureFamily(ctx context.Context, rdb redis.UniversalClient) error {
	id := strconv.Itoa(len(os.Args))
	return rdb.MGet(ctx, "user:"+id+":profile", "user:"+id+":settings").Err()
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
	{"badBuilderPackage", universal(badBuilderPackage)},
	{"goodBuilderPackage", universal(goodBuilderPackage)},
	{"badLocalBuilder", universal(badLocalBuilder)},
	{"badMethodField", universal(badMethodField)},
	{"goodMethodField", universal(goodMethodField)},
	{"badPackageVariable", universal(badPackageVariable)},
	{"badLoopKeys", universal(badLoopKeys)},
	{"goodLoopKeys", universal(goodLoopKeys)},
	{"badWrapper", universal(badWrapper)},
	{"goodWrapper", universal(goodWrapper)},
	{"badWrapperVariadic", universal(badWrapperVariadic)},
	{"badWrapperDerivedKey", universal(badWrapperDerivedKey)},
	{"goodWrapperDerivedKey", universal(goodWrapperDerivedKey)},
	{"badTemplateFamily", universal(badTemplateFamily)},
	{"badNearSureFamily", universal(badNearSureFamily)},
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
