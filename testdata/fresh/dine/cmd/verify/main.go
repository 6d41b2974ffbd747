//go:build verify

// Command verify runs every labelled function of the dine service against a
// live three-master cluster (and a plain server for the single-node
// clients) and prints one line per case.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"

	"example.com/dine/internal/cart"
	"example.com/dine/internal/catalog"
	"example.com/dine/internal/dispatch"
	"example.com/dine/internal/keys"
	"example.com/dine/internal/orders"
	"example.com/dine/internal/promo"
	"example.com/dine/internal/ratings"
)

type tc struct {
	id   string
	seed func(ctx context.Context) error
	run  func(ctx context.Context) error
}

const (
	r1, r2 = keys.RestaurantID("r17"), keys.RestaurantID("r42")
	u1, u2 = keys.UserID("u1001"), keys.UserID("u2002")
	o1, o2 = keys.OrderID("o9001"), keys.OrderID("o9002")
	c1, c2 = keys.CourierID("c7"), keys.CourierID("c8")
	z1, z2 = keys.ZoneID("z1"), keys.ZoneID("z2")
	cp1    = keys.CouponCode("WELCOME10")
	cp2    = keys.CouponCode("LUNCH5")
)

func main() {
	clusterList := flag.String("cluster", "127.0.0.1:7630,127.0.0.1:7631,127.0.0.1:7632", "cluster nodes")
	plain := flag.String("plain", "127.0.0.1:7639", "plain server")
	only := flag.String("only", "", "comma-separated case ids")
	flag.Parse()
	addrs := strings.Split(*clusterList, ",")
	ctx := context.Background()

	// The same wiring as cmd/dine.
	universal := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: addrs, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond})
	reports := goredis.NewClient(&goredis.Options{Addr: *plain})
	clusterRDB := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, RouteByLatency: true})
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs})
	if err != nil {
		log.Fatal(err)
	}
	rcluster := &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{MaxIdle: 8, IdleTimeout: time.Minute, Dial: func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) }}, nil
		},
	}
	if err := rcluster.Refresh(); err != nil {
		log.Fatal(err)
	}
	heat := &redis.Pool{MaxIdle: 2, Dial: func() (redis.Conn, error) { return redis.Dial("tcp", *plain) }}
	gcfg := config.NewClusterClientConfiguration()
	for _, a := range addrs {
		host, port, _ := strings.Cut(a, ":")
		p, _ := strconv.Atoi(port)
		gcfg = gcfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	gc, err := glide.NewClusterClient(gcfg)
	if err != nil {
		log.Fatal(err)
	}
	stale := []string{"campaign:spring", "campaign:summer"}

	cat := catalog.New(universal, catalog.Options{MenuTTL: 12 * time.Hour, Reports: reports})
	carts := cart.New(rc, 72*time.Hour)
	ord := orders.NewRepo(clusterRDB, orders.Config{ReceiptPrefix: "dine:"})
	disp := dispatch.New(rcluster, heat)
	promos := promo.New(rueidiscompat.NewAdapter(rc), promo.WithStaleKeys(stale))
	board := ratings.New(gc)

	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	dishes := []catalog.Dish{{ID: "d1", Name: "Pad thai", Price: 11.5}, {ID: "d2", Name: "Som tam", Price: 8}}
	order := orders.Order{ID: o1, User: u1, Restaurant: r2, Total: 2350, PlacedAt: now}
	ignore2 := func(_ any, err error) error { return err }
	set := func(kv ...any) func(ctx context.Context) error {
		return func(ctx context.Context) error { return clusterRDB.MSet(ctx, kv...).Err() }
	}
	_ = set

	cases := []tc{
		// catalog
		{"H1", nil, func(ctx context.Context) error { return cat.PublishMenu(ctx, r1, dishes) }},
		{"H2", nil, func(ctx context.Context) error { return cat.PublishMenuV2(ctx, r1, dishes) }},
		{"H3", nil, func(ctx context.Context) error { return ignore2(cat.Cards(ctx, []keys.RestaurantID{r1, r2})) }},
		{"H4", nil, func(ctx context.Context) error { return ignore2(cat.CardsPipelined(ctx, []keys.RestaurantID{r1, r2})) }},
		{"H5", nil, func(ctx context.Context) error { return ignore2(cat.SearchByCuisine(ctx, "thai", "vegan")) }},
		{"H6", nil, func(ctx context.Context) error { return ignore2(cat.SearchByCuisineIdx(ctx, "thai", "vegan")) }},
		{"H7", nil, func(ctx context.Context) error { return cat.CloneMenu(ctx, r1, r2) }},
		{"H8", nil, func(ctx context.Context) error { return cat.SnapshotMenu(ctx, r1) }},
		{"H9", nil, func(ctx context.Context) error { return cat.SetHours(ctx, r1, "11-22", true) }},
		{"H10", nil, func(ctx context.Context) error { return cat.SetHoursV2(ctx, r1, "11-22", true) }},
		{"H11", nil, func(ctx context.Context) error { return ignore2(cat.LegacyStats(ctx, r1)) }},
		{"H12", func(ctx context.Context) error {
			return clusterRDB.SAdd(ctx, keys.Rest(r1, "dishes"), "d1", "d2").Err()
		}, func(ctx context.Context) error { return ignore2(cat.DishesByPrice(ctx, r1)) }},
		{"H13", func(ctx context.Context) error {
			return clusterRDB.SAdd(ctx, keys.Rest(r1, "dishes"), "d1", "d2").Err()
		}, func(ctx context.Context) error { return ignore2(cat.DishesByName(ctx, r1)) }},
		{"H14", nil, func(ctx context.Context) error { return ignore2(cat.CardsReport(ctx, []keys.RestaurantID{r1, r2})) }},

		// cart
		{"H15", nil, func(ctx context.Context) error { return carts.AddLegacy(ctx, u1, cart.Line{DishID: "d1", Qty: 2}) }},
		{"H16", nil, func(ctx context.Context) error { return carts.Add(ctx, u1, cart.Line{DishID: "d1", Qty: 2}) }},
		{"H17", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Cart(u2).Items, "d1", 1).Err()
		}, func(ctx context.Context) error { return ignore2(carts.MergeGuest(ctx, u2, u1)) }},
		{"H18", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Cart(u2).Items, "d1", 1).Err()
		}, func(ctx context.Context) error { return ignore2(carts.MergeGuestClient(ctx, u2, u1)) }},
		{"H19", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Cart(u1).Items, "d1", 1).Err()
		}, func(ctx context.Context) error { return carts.FreezeForCheckout(ctx, u1) }},
		{"H20", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Cart(u1).Items, "d1", 1).Err()
		}, func(ctx context.Context) error { return carts.Freeze(ctx, u1) }},
		{"H21", nil, func(ctx context.Context) error { return ignore2(carts.AbandonedMeta(ctx, []keys.UserID{u1, u2})) }},
		{"H22", nil, func(ctx context.Context) error { return ignore2(carts.AbandonedMetaEach(ctx, []keys.UserID{u1, u2})) }},
		{"H23", nil, func(ctx context.Context) error { return carts.ClearLegacy(ctx, u1) }},
		{"H24", nil, func(ctx context.Context) error { return carts.Clear(ctx, u1) }},
		{"H25", nil, func(ctx context.Context) error { return carts.PopularThisWeek(ctx, now) }},
		{"H26", nil, func(ctx context.Context) error { return carts.PopularThisWeekAt(ctx, r1, now) }},
		{"H27", func(ctx context.Context) error {
			if err := clusterRDB.SAdd(ctx, keys.Cart(u1).Saved, "saved:s1", "saved:s2").Err(); err != nil {
				return err
			}
			if err := clusterRDB.Set(ctx, "saved:s1", "{}", 0).Err(); err != nil {
				return err
			}
			return clusterRDB.Set(ctx, "saved:s2", "{}", 0).Err()
		}, func(ctx context.Context) error { return ignore2(carts.SavedForLater(ctx, u1)) }},
		{"H28", nil, func(ctx context.Context) error { return carts.SetQty(ctx, u1, cart.Line{DishID: "d1", Qty: 3}) }},

		// orders
		{"H29", nil, func(ctx context.Context) error { return ord.Place(ctx, order) }},
		{"H30", nil, func(ctx context.Context) error { return ord.PlaceBatched(ctx, order) }},
		{"H31", nil, func(ctx context.Context) error { return ord.PickUp(ctx, o1, c1) }},
		{"H32", nil, func(ctx context.Context) error { return ord.Deliver(ctx, o1) }},
		{"H33", seedStatus(clusterRDB, o1), func(ctx context.Context) error { return ignore2(ord.Accept(ctx, order)) }},
		{"H34", seedStatus(clusterRDB, o1), func(ctx context.Context) error { return ignore2(ord.AcceptWithEvent(ctx, o1)) }},
		{"H35", seedStatus(clusterRDB, o1), func(ctx context.Context) error { return ignore2(ord.AcceptCounted(ctx, o1)) }},
		{"H36", seedStatus(clusterRDB, o1), func(ctx context.Context) error { return ignore2(ord.AcceptDequeue(ctx, order)) }},
		{"H37", seedStatus(clusterRDB, o1), func(ctx context.Context) error { return ignore2(ord.AcceptAndCount(ctx, o1)) }},
		{"H38", func(ctx context.Context) error {
			return clusterRDB.LPush(ctx, keys.Rest(r1, "queue"), string(o1)).Err()
		}, func(ctx context.Context) error { return ignore2(ord.Reassign(ctx, r1, r2)) }},
		{"H39", func(ctx context.Context) error {
			return clusterRDB.LPush(ctx, keys.Rest(r1, "queue"), string(o1)).Err()
		}, func(ctx context.Context) error { return ignore2(ord.StartNext(ctx, r1)) }},
		{"H40", seedHistory(clusterRDB), func(ctx context.Context) error { return ignore2(ord.History(ctx, u1, 10)) }},
		{"H41", seedHistory(clusterRDB), func(ctx context.Context) error { return ignore2(ord.HistoryPipelined(ctx, u1, 10)) }},
		{"H42", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Order(o1), "status", "delivered").Err()
		}, func(ctx context.Context) error { return ord.ArchiveLegacy(ctx, o1) }},
		{"H43", func(ctx context.Context) error {
			return clusterRDB.HSet(ctx, keys.Order(o1), "status", "delivered").Err()
		}, func(ctx context.Context) error { return ord.Archive(ctx, o1) }},
		{"H44", nil, func(ctx context.Context) error { return ord.SaveReceipt(ctx, o1, "2x pad thai", []byte("%PDF-1.7")) }},

		// dispatch
		{"H45", nil, func(context.Context) error { return ignore2(disp.Assign(z1, c1)) }},
		{"H46", nil, func(context.Context) error { return ignore2(disp.AssignTagged(z1, c1)) }},
		{"H47", nil, func(context.Context) error { return disp.Bind(o1, c1) }},
		{"H48", nil, func(context.Context) error { return disp.MarkBusy(o1, c1) }},
		{"H49", nil, func(context.Context) error { return ignore2(disp.Handoff(z1, z2, c1)) }},
		{"H50", func(ctx context.Context) error {
			return clusterRDB.SAdd(ctx, keys.Zone(z1, "idle"), string(c1)).Err()
		}, func(context.Context) error { return ignore2(disp.HandoffSteps(z1, z2, c1)) }},
		{"H51", nil, func(context.Context) error { return disp.Offboard(c1) }},
		{"H52", nil, func(context.Context) error { return disp.OffboardEach(c1) }},
		{"H53", nil, func(context.Context) error { return ignore2(disp.Claim(z1, c1, "13.4,52.5")) }},
		{"H54", nil, func(context.Context) error { return disp.Ping(c1, "13.4,52.5") }},
		{"H55", seedGeo(clusterRDB, z1), func(context.Context) error { return ignore2(disp.Candidates(z1, o1, 13.4, 52.5)) }},
		{"H56", seedGeo(clusterRDB, z1), func(context.Context) error { return ignore2(disp.CandidatesInZone(z1, o1, 13.4, 52.5)) }},
		{"H57", nil, func(context.Context) error { return ignore2(disp.ShiftStats([]keys.CourierID{c1, c2})) }},
		{"H58", func(ctx context.Context) error {
			return reports.MSet(ctx, "heat:"+string(z1), 3, "heat:"+string(z2), 5).Err()
		}, func(context.Context) error { return ignore2(disp.HeatmapCells([]keys.ZoneID{z1, z2})) }},

		// promo
		{"H59", nil, func(ctx context.Context) error { return promos.RedeemLegacy(ctx, cp1, u1) }},
		{"H60", func(ctx context.Context) error {
			return clusterRDB.Set(ctx, keys.Coupon(cp1).Key("left"), 5, 0).Err()
		}, func(ctx context.Context) error { return promos.Redeem(ctx, cp1, u1) }},
		{"H61", nil, func(ctx context.Context) error { return promos.RedeemToWallet(ctx, cp1, u1) }},
		{"H62", func(ctx context.Context) error {
			return clusterRDB.Set(ctx, keys.Coupon(cp1).Key("left"), 5, 0).Err()
		}, func(ctx context.Context) error { return promos.RedeemChecked(ctx, cp1, u1) }},
		{"H63", nil, func(ctx context.Context) error { return ignore2(promos.Active(ctx, r1)) }},
		{"H64", nil, func(ctx context.Context) error { return ignore2(promos.ActiveOwn(ctx, r1)) }},
		{"H65", nil, func(ctx context.Context) error { return promos.IssuePair(ctx, cp1, cp2, 100) }},
		{"H66", nil, func(ctx context.Context) error { return promos.Issue(ctx, cp1, 100, 1) }},
		{"H67", func(ctx context.Context) error {
			return clusterRDB.Set(ctx, stale[0], 1, 0).Err()
		}, func(ctx context.Context) error { return ignore2(promos.Cleanup(ctx)) }},
		{"H68", nil, func(ctx context.Context) error { return ignore2(promos.WeeklyActive(ctx, r1, now)) }},
		{"H69", nil, func(ctx context.Context) error { return ignore2(promos.RedeemedThisWeek(ctx, now)) }},
		{"H70", nil, func(ctx context.Context) error { return ignore2(promos.Reach(ctx, r1, now)) }},

		// ratings
		{"H71", func(ctx context.Context) error {
			return clusterRDB.Set(ctx, keys.RatingSum(r1), 9, 0).Err()
		}, func(ctx context.Context) error { return ignore2(board.Average(ctx, r1)) }},
		{"H72", nil, func(ctx context.Context) error { return board.RateLegacy(ctx, r1, 4) }},
		{"H73", nil, func(ctx context.Context) error { return board.Rate(ctx, r1, 4) }},
		{"H74", nil, func(ctx context.Context) error { return ignore2(board.RollupWeek(ctx, 20)) }},
		{"H75", nil, func(ctx context.Context) error { return ignore2(board.RollupCityWeek(ctx, "berlin", 20)) }},
		{"H76", nil, func(ctx context.Context) error { return ignore2(board.Compare(ctx, r1, r2)) }},
		{"H77", func(ctx context.Context) error {
			return clusterRDB.Set(ctx, fmt.Sprintf("review:draft:%s:%s", u1, r1), "great", 0).Err()
		}, func(ctx context.Context) error { return board.PublishReview(ctx, u1, r1) }},
		{"H78", nil, func(ctx context.Context) error { return ignore2(board.Feature(ctx, u1, r1)) }},
		{"H79", nil, func(ctx context.Context) error { return ignore2(board.RateScripted(ctx, r1, 4)) }},
		{"H80", nil, func(ctx context.Context) error { return ignore2(board.RateScriptedTagged(ctx, r1, 4)) }},
		{"H81", nil, func(ctx context.Context) error { return ignore2(board.Reset(ctx, r1, r2)) }},
		{"H82", nil, func(ctx context.Context) error { return ignore2(board.CommonReviewed(ctx, u1, u2)) }},
		{"H83", nil, func(ctx context.Context) error { return ignore2(board.MenuOverlap(ctx, r1, r2)) }},
	}

	want := map[string]bool{}
	for _, id := range strings.Split(*only, ",") {
		if id != "" {
			want[id] = true
		}
	}
	for _, c := range cases {
		if len(want) > 0 && !want[c.id] {
			continue
		}
		if err := flush(ctx, clusterRDB, reports); err != nil {
			log.Fatalf("flush: %v", err)
		}
		if c.seed != nil {
			if err := c.seed(ctx); err != nil {
				log.Fatalf("%s seed: %v", c.id, err)
			}
		}
		err := call(ctx, c.run)
		if err != nil {
			fmt.Printf("%s error: %s\n", c.id, strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Printf("%s ok\n", c.id)
		}
	}
	gc.Close()
	rc.Close()
	os.Exit(0)
}

func call(ctx context.Context, f func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return f(cctx)
}

func flush(ctx context.Context, c *goredis.ClusterClient, plain *goredis.Client) error {
	if err := c.ForEachMaster(ctx, func(ctx context.Context, n *goredis.Client) error {
		return n.FlushAll(ctx).Err()
	}); err != nil {
		return err
	}
	return plain.FlushAll(ctx).Err()
}

func seedStatus(c *goredis.ClusterClient, id keys.OrderID) func(context.Context) error {
	return func(ctx context.Context) error {
		return c.Set(ctx, keys.OrderField(id, "status"), string(orders.Placed), 0).Err()
	}
}

func seedHistory(c *goredis.ClusterClient) func(context.Context) error {
	return func(ctx context.Context) error {
		if err := c.ZAdd(ctx, keys.UserOrders(u1), goredis.Z{Score: 1, Member: string(o1)}, goredis.Z{Score: 2, Member: string(o2)}).Err(); err != nil {
			return err
		}
		if err := c.Set(ctx, keys.OrderField(o1, "status"), "delivered", 0).Err(); err != nil {
			return err
		}
		return c.Set(ctx, keys.OrderField(o2, "status"), "placed", 0).Err()
	}
}

func seedGeo(c *goredis.ClusterClient, z keys.ZoneID) func(context.Context) error {
	return func(ctx context.Context) error {
		return c.GeoAdd(ctx, keys.Zone(z, "geo"), &goredis.GeoLocation{Name: string(c1), Longitude: 13.401, Latitude: 52.501}).Err()
	}
}
