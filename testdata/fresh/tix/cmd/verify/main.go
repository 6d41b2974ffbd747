//go:build verify

// Command verify runs every labelled function of the service against a live
// three-master cluster (and the standalone search cache), wired as cmd/tixd
// wires them, and prints one line per case: "ID ok" or "ID error: ...".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"example.com/tix/internal/catalog"
	"example.com/tix/internal/feed"
	"example.com/tix/internal/keyspace"
	"example.com/tix/internal/orders"
	"example.com/tix/internal/promo"
	"example.com/tix/internal/ratelimit"
	"example.com/tix/internal/searchcache"
	"example.com/tix/internal/seats"
	"example.com/tix/internal/sessions"
	"example.com/tix/internal/waitlist"
)

// The values of the run: two of each id, on different slots.
const (
	evA, evB     keyspace.EventID   = 1001, 2002
	venue        keyspace.VenueID   = 7
	alice, bob   keyspace.UserID    = "u-alice", "u-bob"
	guest        keyspace.UserID    = "g-93f1"
	ord1, ord2   keyspace.OrderID   = 500001, 500002
	codeA, codeB keyspace.PromoCode = "SPRING24", "VIP50"
	rock, jazz   keyspace.ArtistID  = "a-rock", "a-jazz"
	tokA, tokB   sessions.Token     = "tok-1f2e", "tok-9c0d"
)

// clock is the limiter's time in this run: window 29715601 of one minute, where a user's bucket and its burst key are on two nodes.
var clock = time.Date(2026, 7, 1, 20, 1, 30, 0, time.UTC)

type env struct {
	rdb   *redis.ClusterClient
	uni   redis.UniversalClient
	cache *redis.Client
	rc    rueidis.Client
	pc    *redisc.Cluster

	catalog  *catalog.Catalog
	holds    *seats.Holds
	orders   *orders.Store
	sessions *sessions.Store
	waitlist *waitlist.List
	promos   *promo.Codes
	feeds    *feed.Feeds
	limiter  *ratelimit.Limiter
	search   *searchcache.Cache
}

type tcase struct {
	id  string
	run func(ctx context.Context, e *env) error
}

func main() {
	clusterFl := flag.String("cluster", "127.0.0.1:17501,127.0.0.1:17502,127.0.0.1:17503", "cluster nodes")
	plain := flag.String("plain", "127.0.0.1:17510", "standalone server (search cache)")
	flag.Parse()
	addrs := strings.Split(*clusterFl, ",")
	ctx := context.Background()

	// Wired as cmd/tixd wires them.
	e := &env{}
	e.rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond})
	e.uni = redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, PoolSize: 50})
	e.cache = redis.NewClient(&redis.Options{Addr: *plain, DB: 2})
	var err error
	e.rc, err = rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		log.Fatal(err)
	}
	e.pc = &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redigo.DialOption{redigo.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return &redigo.Pool{MaxIdle: 8, IdleTimeout: time.Minute,
				Dial: func() (redigo.Conn, error) { return redigo.Dial("tcp", addr, opts...) }}, nil
		},
	}
	if err := e.pc.Refresh(); err != nil {
		log.Fatal(err)
	}
	e.catalog = catalog.New(e.rdb)
	e.holds = seats.New(e.rdb, 10*time.Minute)
	e.orders = orders.New(e.rdb, 30*time.Minute)
	e.sessions = sessions.New(e.uni, sessions.Options{Prefix: "tix:", TTL: 12 * time.Hour})
	e.waitlist = waitlist.New(e.rc)
	e.promos = promo.New(e.pc)
	e.feeds = feed.New(e.uni, 500)
	// As in main, with the clock fixed so that every run uses the same windows.
	e.limiter = ratelimit.New(e.uni, ratelimit.Config{Limit: 20, Burst: 10, Window: time.Minute, Clock: func() time.Time { return clock }})
	e.search = searchcache.New(e.cache, 5*time.Minute)

	for _, c := range cases {
		if err := flush(ctx, e); err != nil {
			log.Fatalf("flush: %v", err)
		}
		err := protect(func() error { return c.run(ctx, e) })
		if err != nil {
			fmt.Printf("%s error: %s\n", c.id, oneLine(err))
		} else {
			fmt.Printf("%s ok\n", c.id)
		}
	}
	os.Exit(0)
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

func protect(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func flush(ctx context.Context, e *env) error {
	if err := e.rdb.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		return n.FlushAll(ctx).Err()
	}); err != nil {
		return err
	}
	return e.cache.FlushAll(ctx).Err()
}

func ev(id keyspace.EventID) catalog.Event {
	return catalog.Event{ID: id, Venue: venue, Title: fmt.Sprintf("Show %d", id), StartsAt: time.Date(2026, 7, 1, 20, 0, 0, 0, time.UTC), Capacity: 500}
}

// ignore turns a business-level outcome (sold out, nil reply) into success:
// only what the server or client refused counts.
func ignore(err error, oks ...error) error {
	if errors.Is(err, redis.Nil) || errors.Is(err, rueidis.Nil) {
		return nil
	}
	for _, ok := range oks {
		if errors.Is(err, ok) {
			return nil
		}
	}
	return err
}

var cases = []tcase{
	// repo
	{"T1", func(ctx context.Context, e *env) error {
		_ = e.catalog.Events.Put(ctx, evA, ev(evA))
		_ = e.catalog.Events.Put(ctx, evB, ev(evB))
		_, err := e.catalog.Events.GetMany(ctx, evA, evB)
		return err
	}},
	{"T2", func(ctx context.Context, e *env) error {
		_ = e.catalog.Events.Put(ctx, evA, ev(evA))
		_ = e.catalog.Events.Put(ctx, evB, ev(evB))
		n := 0
		for range e.catalog.Events.All(ctx, []keyspace.EventID{evA, evB}) {
			n++
		}
		if n != 2 {
			return fmt.Errorf("All yielded %d of 2", n)
		}
		return nil
	}},
	{"T3", func(ctx context.Context, e *env) error {
		return e.catalog.Events.PutMany(ctx, map[keyspace.EventID]catalog.Event{evA: ev(evA), evB: ev(evB)})
	}},
	{"T4", func(ctx context.Context, e *env) error {
		_ = e.catalog.Events.Put(ctx, evA, ev(evA))
		return e.catalog.Events.DeleteMany(ctx, evA, evB)
	}},
	{"T5", func(ctx context.Context, e *env) error {
		_ = e.catalog.Events.Put(ctx, evA, ev(evA))
		_, err := e.catalog.Events.Purge(ctx, evA, evB)
		return err
	}},
	// catalog
	{"T6", func(ctx context.Context, e *env) error { _, err := e.catalog.Snapshot(ctx, evA); return err }},
	{"T7", func(ctx context.Context, e *env) error { _, err := e.catalog.SnapshotV2(ctx, evA); return err }},
	{"T8", func(ctx context.Context, e *env) error { return e.catalog.Publish(ctx, ev(evA)) }},
	{"T9", func(ctx context.Context, e *env) error { return e.catalog.PublishV2(ctx, ev(evA)) }},
	{"T10", func(ctx context.Context, e *env) error {
		_ = e.catalog.PublishV2(ctx, ev(evA))
		return e.catalog.Archive(ctx, evA)
	}},
	{"T11", func(ctx context.Context, e *env) error {
		_ = e.catalog.PublishV2(ctx, ev(evA))
		return e.catalog.Retire(ctx, evA)
	}},
	{"T12", func(ctx context.Context, e *env) error {
		e.rdb.SAdd(ctx, keyspace.Event.Tag(evA, "viewers"), "x", "y")
		e.rdb.SAdd(ctx, keyspace.Event.Tag(evB, "viewers"), "y", "z")
		_, err := e.catalog.CompareViews(ctx, evA, evB)
		return err
	}},
	{"T13", func(ctx context.Context, e *env) error {
		e.rdb.SAdd(ctx, keyspace.Event.Tag(evA, "viewers"), "x", "y")
		e.rdb.SAdd(ctx, keyspace.Event.Tag(evB, "viewers"), "y", "z")
		n, err := e.catalog.AudienceOverlap(ctx, evA, evB)
		if err == nil && n != 1 {
			return fmt.Errorf("overlap %d, want 1", n)
		}
		return err
	}},
	{"T14", func(ctx context.Context, e *env) error {
		e.rdb.SAdd(ctx, keyspace.Venue.Tag(venue, "events"), evA.String(), evB.String())
		_, err := e.catalog.TopSellers(ctx, venue, 10)
		return err
	}},
	{"T15", func(ctx context.Context, e *env) error {
		e.rdb.ZAdd(ctx, keyspace.Venue.Tag(venue, "sold"), redis.Z{Score: 3, Member: evA.String()})
		_, err := e.catalog.TopSellersV2(ctx, venue, 10)
		return err
	}},
	{"T16", func(ctx context.Context, e *env) error {
		_ = e.catalog.PublishV2(ctx, ev(evA))
		return e.catalog.Sell(ctx, ev(evA), 2)
	}},
	{"T17", func(ctx context.Context, e *env) error {
		_ = e.catalog.PublishV2(ctx, ev(evA))
		return e.catalog.SellV2(ctx, ev(evA), 2)
	}},
	{"T18", func(ctx context.Context, e *env) error {
		_ = e.catalog.PublishV2(ctx, ev(evA))
		return e.catalog.ArchiveToColdDB(ctx, evA)
	}},
	// seats
	{"T19", func(ctx context.Context, e *env) error { return e.holds.Hold(ctx, evA, alice, "A-1", "A-2") }},
	{"T20", func(ctx context.Context, e *env) error { return e.holds.HoldBoxOffice(ctx, evA, alice, "A-1", "A-2") }},
	{"T21", func(ctx context.Context, e *env) error {
		if err := e.holds.Hold(ctx, evA, alice, "A-1", "A-2"); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		n, err := e.holds.Release(ctx, evA, alice)
		if err == nil && n != 2 {
			return fmt.Errorf("released %d, want 2", n)
		}
		return err
	}},
	{"T22", func(ctx context.Context, e *env) error {
		_ = e.holds.Hold(ctx, evB, alice, "A-1")
		_, err := e.holds.Report(ctx, evB, alice)
		return err
	}},
	{"T23", func(ctx context.Context, e *env) error {
		_ = e.holds.Hold(ctx, evA, alice, "A-1", "A-2")
		return e.holds.Extend(ctx, evA, alice)
	}},
	{"T24", func(ctx context.Context, e *env) error {
		_ = e.holds.Hold(ctx, evA, alice, "A-1")
		return e.holds.Swap(ctx, alice, evA, evB, "A-1")
	}},
	{"T25", func(ctx context.Context, e *env) error {
		_ = e.holds.Hold(ctx, evA, alice, "A-1")
		return e.holds.Handover(ctx, evA, alice, bob, "A-1")
	}},
	{"T26", func(ctx context.Context, e *env) error {
		return e.holds.SeriesPass(ctx, []keyspace.EventID{evA, evB}, alice, "A-1")
	}},
	{"T27", func(ctx context.Context, e *env) error {
		_ = e.holds.Hold(ctx, evA, alice, "A-1")
		_, err := e.holds.HeldBy(ctx, evA, "A-1", "A-2", "A-3")
		return err
	}},
	{"T28", func(ctx context.Context, e *env) error {
		_, err := e.holds.LockSections(ctx, "boxoffice-1", "FLOOR", "BALCONY")
		return err
	}},
	// orders
	{"T29", func(ctx context.Context, e *env) error {
		_ = e.orders.AddToCart(ctx, alice, orders.Line{Event: evA, Seat: "A-1", Cents: 4500})
		_, err := e.orders.Checkout(ctx, alice, ord1)
		return err
	}},
	{"T30", func(ctx context.Context, e *env) error {
		_ = e.orders.AddToCart(ctx, alice, orders.Line{Event: evA, Seat: "A-1", Cents: 4500})
		_, err := e.orders.CheckoutV2(ctx, alice, ord1)
		return err
	}},
	{"T31", func(ctx context.Context, e *env) error {
		_ = e.orders.AddToCart(ctx, guest, orders.Line{Event: evA, Seat: "A-1", Cents: 4500})
		return e.orders.MergeGuestCart(ctx, guest, alice)
	}},
	{"T32", func(ctx context.Context, e *env) error {
		_ = e.orders.AddToCart(ctx, guest, orders.Line{Event: evA, Seat: "A-1", Cents: 4500})
		return e.orders.MergeGuestCartV2(ctx, guest, alice)
	}},
	{"T33", func(ctx context.Context, e *env) error {
		e.rdb.LPush(ctx, keyspace.User.Tag(alice, "orders"), ord1.String(), ord2.String())
		e.rdb.Set(ctx, keyspace.Order.Key(ord1), `{"id":500001}`, 0)
		e.rdb.Set(ctx, keyspace.Order.Key(ord2), `{"id":500002}`, 0)
		_, err := e.orders.Recent(ctx, alice, 10)
		return err
	}},
	{"T34", func(ctx context.Context, e *env) error {
		e.rdb.LPush(ctx, keyspace.User.Tag(alice, "orders"), ord1.String(), ord2.String())
		e.rdb.Set(ctx, keyspace.User.Tag(alice, "order", ord1.String()), `{"id":500001}`, 0)
		e.rdb.Set(ctx, keyspace.User.Tag(alice, "order", ord2.String()), `{"id":500002}`, 0)
		os, err := e.orders.RecentV2(ctx, alice, 10)
		if err == nil && len(os) != 2 {
			return fmt.Errorf("got %d orders, want 2", len(os))
		}
		return err
	}},
	{"T35", func(ctx context.Context, e *env) error {
		e.rdb.LPush(ctx, keyspace.User.Tag(alice, "orders"), ord1.String())
		return e.orders.Refund(ctx, alice, ord1)
	}},
	{"T36", func(ctx context.Context, e *env) error {
		e.rdb.LPush(ctx, keyspace.User.Tag(alice, "orders"), ord1.String())
		_, err := e.orders.RequestRefund(ctx, alice)
		return err
	}},
	{"T37", func(ctx context.Context, e *env) error {
		e.rdb.LPush(ctx, keyspace.User.Tag(alice, "orders"), ord1.String())
		_, err := e.orders.RequestRefundV2(ctx, alice)
		return err
	}},
	{"T38", func(ctx context.Context, e *env) error {
		e.rdb.Set(ctx, keyspace.Order.Key(ord1), `{"id":500001}`, 0)
		return e.orders.Finalize(ctx, alice, ord1)
	}},
	{"T39", func(ctx context.Context, e *env) error {
		_ = e.orders.AddToCart(ctx, alice, orders.Line{Event: evA, Seat: "A-1", Cents: 4500})
		_ = e.orders.AddToCart(ctx, bob, orders.Line{Event: evB, Seat: "B-1", Cents: 3000})
		t, err := e.orders.Totals(ctx, alice, bob)
		if err == nil && (t[alice] != 4500 || t[bob] != 3000) {
			return fmt.Errorf("totals %v", t)
		}
		return err
	}},
	// sessions
	{"T40", func(ctx context.Context, e *env) error { return e.sessions.Login(ctx, alice, tokA) }},
	{"T41", func(ctx context.Context, e *env) error { return e.sessions.LoginScoped(ctx, alice, tokA) }},
	{"T42", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, false, tokA, tokB)
		return e.sessions.LogoutEverywhere(ctx, alice)
	}},
	{"T43", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, true, tokA, tokB)
		return e.sessions.LogoutEverywhereScoped(ctx, alice)
	}},
	{"T44", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, false, tokA)
		return e.sessions.Rotate(ctx, tokA, tokB)
	}},
	{"T45", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, true, tokA)
		return e.sessions.RotateScoped(ctx, alice, tokA, tokB)
	}},
	{"T46", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, false, tokA, tokB)
		return e.sessions.Touch(ctx, tokA, tokB)
	}},
	{"T47", func(ctx context.Context, e *env) error {
		toks := manyTokens(12)
		seedTokens(ctx, e, alice, false, toks...)
		n, err := e.sessions.Active(ctx)
		if err == nil && n != len(toks) {
			return fmt.Errorf("KEYS counted %d of %d session keys (one node's share)", n, len(toks))
		}
		return err
	}},
	{"T48", func(ctx context.Context, e *env) error {
		toks := manyTokens(12)
		seedTokens(ctx, e, alice, false, toks...)
		n, err := e.sessions.ActiveAll(ctx)
		if err == nil && n != len(toks) {
			return fmt.Errorf("counted %d of %d session keys", n, len(toks))
		}
		return err
	}},
	{"T49", func(ctx context.Context, e *env) error {
		seedTokens(ctx, e, alice, false, tokA, tokB)
		_, err := e.sessions.Who(ctx, tokA, tokB)
		return err
	}},
	// waitlist
	{"T50", func(ctx context.Context, e *env) error { return e.waitlist.Join(ctx, evA, alice) }},
	{"T51", func(ctx context.Context, e *env) error { return e.waitlist.JoinAtomic(ctx, evA, alice) }},
	{"T52", func(ctx context.Context, e *env) error { return e.waitlist.JoinCounted(ctx, evA, alice) }},
	{"T53", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_ = e.waitlist.Join(ctx, evA, bob)
		got, err := e.waitlist.Promote(ctx, evA, 1)
		if err == nil && len(got) != 1 {
			return fmt.Errorf("promoted %v", got)
		}
		return err
	}},
	{"T54", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_, err := e.waitlist.PromoteLegacy(ctx, evA, 1)
		return err
	}},
	{"T55", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_ = e.waitlist.Join(ctx, evB, bob)
		_, err := e.waitlist.Combine(ctx, evA, evB)
		return err
	}},
	{"T56", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_ = e.waitlist.Join(ctx, evB, bob)
		_, err := e.waitlist.CombineV2(ctx, evA, evB)
		return err
	}},
	{"T57", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_, err := e.waitlist.Lengths(ctx, evA, evB)
		return err
	}},
	{"T58", func(ctx context.Context, e *env) error {
		_, err := e.waitlist.Counters(ctx, evA, evB)
		return err
	}},
	{"T59", func(ctx context.Context, e *env) error {
		_ = e.waitlist.Join(ctx, evA, alice)
		_, _, err := e.waitlist.Status(ctx, evA)
		return err
	}},
	{"T60", func(ctx context.Context, e *env) error { return e.waitlist.Forget(ctx, alice, evA, evB) }},
	{"T61", func(ctx context.Context, e *env) error { return e.waitlist.ForgetV2(ctx, alice, evA, evB) }},
	// promo
	{"T62", func(ctx context.Context, e *env) error {
		if err := e.promos.Create(codeA, "Spring sale", 10); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		return e.promos.Redeem(codeA, alice)
	}},
	{"T63", func(ctx context.Context, e *env) error {
		if err := e.promos.Create(codeA, "Spring sale", 10); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		return e.promos.RedeemV2(codeA, alice)
	}},
	{"T64", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		_ = e.promos.Create(codeB, "VIP", 5)
		_, err := e.promos.Labels(codeA, codeB)
		return err
	}},
	{"T65", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		_ = e.promos.Create(codeB, "VIP", 5)
		ls, err := e.promos.LabelsV2(codeA, codeB)
		if err == nil && (ls[0] != "Spring sale" || ls[1] != "VIP") {
			return fmt.Errorf("labels %q", ls)
		}
		return err
	}},
	{"T66", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		return e.promos.Clone(codeA, codeB)
	}},
	{"T67", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		return e.promos.Rebrand(codeA, "Spring sale (extended)")
	}},
	{"T68", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		return e.promos.Attach(codeA, alice)
	}},
	{"T69", func(ctx context.Context, e *env) error {
		_ = e.promos.Create(codeA, "Spring sale", 10)
		_ = e.promos.RedeemV2(codeA, alice)
		left, n, err := e.promos.Usage(codeA)
		if err == nil && (left != 9 || n != 1) {
			return fmt.Errorf("usage %d/%d", left, n)
		}
		return err
	}},
	// feed
	{"T70", func(ctx context.Context, e *env) error {
		seedPosts(ctx, e)
		_, err := e.feeds.Rebuild(ctx, alice, rock, jazz)
		return err
	}},
	{"T71", func(ctx context.Context, e *env) error {
		seedPosts(ctx, e)
		n, err := e.feeds.RebuildV2(ctx, alice, rock, jazz)
		if err == nil && n != 2 {
			return fmt.Errorf("feed of %d, want 2", n)
		}
		return err
	}},
	{"T72", func(ctx context.Context, e *env) error { return e.feeds.Follow(ctx, alice, rock) }},
	{"T73", func(ctx context.Context, e *env) error { return e.feeds.FollowV2(ctx, alice, rock) }},
	{"T74", func(ctx context.Context, e *env) error {
		_ = e.feeds.FollowV2(ctx, alice, rock)
		_ = e.feeds.FollowV2(ctx, bob, rock)
		_, err := e.feeds.Mutuals(ctx, alice, bob)
		return err
	}},
	{"T75", func(ctx context.Context, e *env) error {
		_ = e.feeds.FollowV2(ctx, alice, rock)
		_ = e.feeds.FollowV2(ctx, bob, rock)
		m, err := e.feeds.MutualsV2(ctx, alice, bob)
		if err == nil && len(m) != 1 {
			return fmt.Errorf("mutuals %v", m)
		}
		return err
	}},
	{"T76", func(ctx context.Context, e *env) error {
		_ = e.feeds.FanoutV2(ctx, feed.Post{ID: "p1", Artist: rock, At: time.Now()}, []keyspace.UserID{alice})
		_, err := e.feeds.Unseen(ctx, alice)
		return err
	}},
	{"T77", func(ctx context.Context, e *env) error {
		return e.feeds.Fanout(ctx, feed.Post{ID: "p1", Artist: rock, At: time.Now()}, []keyspace.UserID{alice, bob})
	}},
	{"T78", func(ctx context.Context, e *env) error {
		return e.feeds.FanoutV2(ctx, feed.Post{ID: "p1", Artist: rock, At: time.Now()}, []keyspace.UserID{alice, bob})
	}},
	{"T79", func(ctx context.Context, e *env) error {
		ps, err := e.feeds.Live(ctx, rock, jazz)
		if ps != nil {
			ps.Close()
		}
		return err
	}},
	{"T80", func(ctx context.Context, e *env) error {
		ps, err := e.feeds.LiveOne(ctx, rock)
		if ps != nil {
			ps.Close()
		}
		return err
	}},
	// ratelimit: enough calls to pass the limit and spend the burst
	{"T81", func(ctx context.Context, e *env) error {
		for range 35 {
			if _, err := e.limiter.Allow(ctx, alice, "search"); err != nil {
				return err
			}
		}
		return nil
	}},
	{"T82", func(ctx context.Context, e *env) error {
		for range 35 {
			if _, err := e.limiter.AllowV2(ctx, alice, "search"); err != nil {
				return err
			}
		}
		return nil
	}},
	{"T83", func(ctx context.Context, e *env) error {
		_, err := e.limiter.AllowBundle(ctx, alice, "search", "checkout")
		return err
	}},
	{"T84", func(ctx context.Context, e *env) error {
		_, err := e.limiter.AllowBundleV2(ctx, alice, "search", "checkout")
		return err
	}},
	{"T85", func(ctx context.Context, e *env) error {
		// an abuser far past the limit: set the bucket as a flood would
		w := clock.Unix() / 60
		e.uni.Set(ctx, fmt.Sprintf("rl:{%s}:search:%d", bob, w), 5000, time.Minute)
		_, err := e.limiter.Police(ctx, bob, "search")
		return err
	}},
	{"T86", func(ctx context.Context, e *env) error {
		_, _ = e.limiter.AllowV2(ctx, alice, "search")
		_, _, err := e.limiter.Trend(ctx, alice, "search")
		return err
	}},
	{"T87", func(ctx context.Context, e *env) error {
		_, _ = e.limiter.AllowV2(ctx, alice, "search")
		_, _, err := e.limiter.TrendV2(ctx, alice, "search")
		return err
	}},
	{"T88", func(ctx context.Context, e *env) error { _, err := e.limiter.Sliding(ctx, alice); return err }},
	// search cache (standalone server, as wired in main)
	{"T89", func(ctx context.Context, e *env) error {
		return e.search.Put(ctx, "jazz in july", []keyspace.EventID{evA, evB}, venue, 8)
	}},
	{"T90", func(ctx context.Context, e *env) error {
		_ = e.search.Put(ctx, "jazz in july", []keyspace.EventID{evA}, venue)
		_, err := e.search.GetMany(ctx, "jazz in july", "rock", "opera tonight")
		return err
	}},
	{"T91", func(ctx context.Context, e *env) error {
		_ = e.search.Put(ctx, "jazz in july", []keyspace.EventID{evA}, venue)
		_ = e.search.Put(ctx, "rock", []keyspace.EventID{evB}, venue)
		_, err := e.search.InvalidateVenue(ctx, venue)
		return err
	}},
	{"T92", func(ctx context.Context, e *env) error {
		_ = e.search.Put(ctx, "jazz in july", []keyspace.EventID{evA}, venue)
		if err := e.search.Flush(ctx); err != nil {
			return err
		}
		if n := e.cache.DBSize(ctx).Val(); n != 0 {
			return fmt.Errorf("%d keys left after flush", n)
		}
		return nil
	}},
}

func manyTokens(n int) []sessions.Token {
	out := make([]sessions.Token, n)
	for i := range out {
		out[i] = sessions.Token(fmt.Sprintf("tok-%04x", 0x1000+i*7919))
	}
	return out
}

// seedTokens writes sessions the way the login service does, without going
// through the functions under test.
func seedTokens(ctx context.Context, e *env, u keyspace.UserID, scoped bool, toks ...sessions.Token) {
	for _, t := range toks {
		k := "tix:sess:" + string(t)
		if scoped {
			k = "tix:sess:{" + string(u) + "}:" + string(t)
		}
		e.uni.Set(ctx, k, string(u), time.Hour)
		e.uni.SAdd(ctx, "tix:user:{"+string(u)+"}:sessions", string(t))
	}
}

func seedPosts(ctx context.Context, e *env) {
	_ = e.feeds.Announce(ctx, feed.Post{ID: "p-rock-1", Artist: rock, At: time.Now()})
	_ = e.feeds.Announce(ctx, feed.Post{ID: "p-jazz-1", Artist: jazz, At: time.Now()})
}
