// Command ledger is a realistic service whose methods take the ids of a
// request (package shop) and an exported library its users call (package
// wallet). Every bad* scenario calls a method whose keys a three-master
// cluster refuses (CROSSSLOT, MOVED inside a watched transaction, rueidis's
// cluster builder); the good* one beside it calls the fixed twin, which the
// cluster accepts. Ids are drawn at run time; apart redraws the ~1 in 16384
// that would put a bad call's keys on one slot.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"example.com/ledger/shop"
	"example.com/ledger/wallet"
)

type env struct {
	rdb  *redis.ClusterClient
	shop *shop.Shop
	w    *wallet.Wallet
}

func newID() string { return strconv.FormatUint(rand.Uint64(), 36) }

// apart draws a second id for which the keys the two ids make are on
// different slots.
func (e env) apart(ctx context.Context, first string, key func(id string) string) string {
	for {
		id := newID()
		sa, _ := e.rdb.ClusterKeySlot(ctx, key(first)).Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, key(id)).Result()
		if sa != sb {
			return id
		}
	}
}

func two(ctx context.Context, e env, key func(string) string) (string, string) {
	a := newID()
	return a, e.apart(ctx, a, key)
}

var scenarios = []struct {
	name string
	run  func(context.Context, env) error
}{
	{"badTransfer", func(ctx context.Context, e env) error {
		from, to := two(ctx, e, func(id string) string { return "wallet:" + id + ":balance" })
		return e.w.Transfer(ctx, from, to, 5)
	}},
	{"goodSave", func(ctx context.Context, e env) error { return e.w.Save(ctx, newID(), 5) }},
	{"badSettle", func(ctx context.Context, e env) error {
		pending := newID()
		account := e.apart(ctx, pending, func(id string) string {
			if id == pending {
				return "wallet:" + id + ":pending"
			}
			return "wallet:" + id + ":balance"
		})
		return e.w.Settle(ctx, pending, account)
	}},
	{"goodSettleOwn", func(ctx context.Context, e env) error { return e.w.SettleOwn(ctx, newID()) }},
	{"badMergeWishlist", func(ctx context.Context, e env) error {
		guest, user := two(ctx, e, func(id string) string { return "wishlist:" + id })
		return e.shop.MergeWishlist(ctx, guest, user)
	}},
	{"goodMergeWishlistFixed", func(ctx context.Context, e env) error {
		guest, user := newID(), newID()
		if err := e.rdb.SAdd(ctx, "wishlist:"+guest, "book").Err(); err != nil {
			return err
		}
		return e.shop.MergeWishlistFixed(ctx, guest, user)
	}},
	{"badCheckout", func(ctx context.Context, e env) error {
		user := newID()
		order := rand.Int64N(1 << 40)
		for {
			su, _ := e.rdb.ClusterKeySlot(ctx, "{"+user+"}").Result()
			so, _ := e.rdb.ClusterKeySlot(ctx, "{"+strconv.FormatInt(order, 10)+"}").Result()
			if su != so {
				break
			}
			order++
		}
		return e.shop.Checkout(ctx, user, order)
	}},
	{"goodCheckoutFixed", func(ctx context.Context, e env) error {
		user := newID()
		if err := e.rdb.RPush(ctx, "cart:{"+user+"}:items", "book").Err(); err != nil {
			return err
		}
		return e.shop.CheckoutFixed(ctx, user, rand.Int64N(1<<40))
	}},
	{"badCancel", func(ctx context.Context, e env) error {
		user := newID()
		id := rand.Int64N(1 << 40)
		for {
			so, _ := e.rdb.ClusterKeySlot(ctx, "order:"+strconv.FormatInt(id, 10)+":state").Result()
			su, _ := e.rdb.ClusterKeySlot(ctx, "user:"+user+":cancelled").Result()
			if so != su {
				break
			}
			id++
		}
		return e.shop.Cancel(ctx, id, user)
	}},
	{"goodCancelFixed", func(ctx context.Context, e env) error { return e.shop.CancelFixed(ctx, rand.Int64N(1<<40), newID()) }},
	{"badFollow", func(ctx context.Context, e env) error {
		a := newID()
		b := e.apart(ctx, a, func(id string) string {
			if id == a {
				return "following:" + id
			}
			return "followers:" + id
		})
		return e.shop.Follow(ctx, a, b)
	}},
	{"goodFollowFixed", func(ctx context.Context, e env) error { return e.shop.FollowFixed(ctx, newID(), newID()) }},
	{"badReserve", func(ctx context.Context, e env) error {
		sku := newID()
		order := e.apart(ctx, sku, func(id string) string {
			if id == sku {
				return "stock:" + id
			}
			return "hold:" + id
		})
		return e.shop.Reserve(ctx, sku, order)
	}},
	{"goodReserveFixed", func(ctx context.Context, e env) error { return e.shop.ReserveFixed(ctx, newID(), newID()) }},
	{"badArchive", func(ctx context.Context, e env) error {
		from, to := two(ctx, e, func(id string) string { return "cart:" + id })
		return e.shop.Archive(ctx, from, to)
	}},
	{"goodArchiveFixed", func(ctx context.Context, e env) error {
		user := newID()
		if err := e.rdb.Set(ctx, "cart:{"+user+"}", "book", 0).Err(); err != nil {
			return err
		}
		return e.shop.ArchiveFixed(ctx, user)
	}},
	{"badPurge", func(ctx context.Context, e env) error {
		a, b := two(ctx, e, func(id string) string { return "tmp:" + id })
		return e.shop.Purge(ctx, a, b)
	}},
	{"goodPurgeFixed", func(ctx context.Context, e env) error { return e.shop.PurgeFixed(ctx, newID(), newID()) }},
	{"badMoveStock", func(ctx context.Context, e env) error {
		from, to := two(ctx, e, func(id string) string { return "inventory:" + id })
		return e.shop.MoveStock(ctx, from, to)
	}},
	{"goodMoveStockFixed", func(ctx context.Context, e env) error {
		sku := newID()
		if err := e.rdb.Set(ctx, "inventory:{"+sku+"}", 3, 0).Err(); err != nil {
			return err
		}
		return e.shop.MoveStockFixed(ctx, sku)
	}},
}

// run runs one scenario; a panic (rueidis's cluster builder refuses keys on
// different slots so) is an error.
func run(ctx context.Context, e env, f func(context.Context, env) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(ctx, e)
}

func main() {
	addr := flag.String("addr", "", "a node of a Redis Cluster, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: ledger -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})
	defer rdb.Close()
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{*addr}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "ledger:", err)
		os.Exit(1)
	}
	defer rc.Close()
	e := env{rdb: rdb, shop: shop.New(rdb, rc), w: wallet.New(rdb)}
	for _, s := range scenarios {
		if err := run(ctx, e, s.run); err != nil && !errors.Is(err, redis.Nil) && !rueidis.IsRedisNil(err) {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
