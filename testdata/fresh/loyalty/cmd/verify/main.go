//go:build verify

// Command verify runs every labelled function of the service against a live
// three-master cluster (and the plain profile-cache server), with the wiring
// of cmd/loyaltyd, and prints one line per case.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"

	"example.com/loyalty/internal/boards"
	"example.com/loyalty/internal/campaigns"
	"example.com/loyalty/internal/expiry"
	"example.com/loyalty/internal/fraud"
	"example.com/loyalty/internal/keys"
	"example.com/loyalty/internal/ledger"
	"example.com/loyalty/internal/partners"
	"example.com/loyalty/internal/profile"
	"example.com/loyalty/internal/rewards"
	"example.com/loyalty/internal/tiers"
)

type testCase struct {
	id  string
	run func(ctx context.Context) error
}

func main() {
	clusterAddrs := flag.String("cluster", "127.0.0.1:31001,127.0.0.1:31002,127.0.0.1:31003", "cluster seeds")
	cacheAddr := flag.String("profile-cache", "127.0.0.1:31010", "plain server")
	outPath := flag.String("o", "", "also write the case lines to this file (GLIDE's core logs to stdout)")
	flag.Parse()
	out := io.Writer(os.Stdout)
	if *outPath != "" {
		f, err := os.Create(*outPath)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		out = io.MultiWriter(os.Stdout, f)
	}
	addrs := strings.Split(*clusterAddrs, ",")
	ctx := context.Background()

	// Wiring: the same as cmd/loyaltyd.
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond})
	ks := keys.Keyspace{Prefix: "lp"}
	led := ledger.New(rdb, ks, ledger.Options{PointsTTL: 365 * 24 * time.Hour})
	sweeper := expiry.New(rdb, ks, "sweeper", "w1")
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	tierSvc := tiers.New(cc, tiers.Thresholds{
		{Points: 5_000, Tier: tiers.Silver},
		{Points: 20_000, Tier: tiers.Gold},
		{Points: 75_000, Tier: tiers.Platinum},
	})
	tierSvc.TaggedKeys = true
	plain := redis.NewClient(&redis.Options{Addr: *cacheAddr})
	cache := profile.NewCache(plain, 10*time.Minute)
	vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: addrs})
	if err != nil {
		log.Fatal(err)
	}
	catalog := rewards.NewCatalog(vk, "rw", ks)
	compat := valkeycompat.NewAdapter(vk)
	partnerReg := partners.NewRegistry(compat)
	engine := campaigns.NewEngine(compat)
	gcfg := config.NewClusterClientConfiguration().WithRequestTimeout(time.Second).WithClientName("loyaltyd")
	for _, a := range addrs {
		host, port, _ := net.SplitHostPort(a)
		p, _ := strconv.Atoi(port)
		gcfg = gcfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	g, err := glide.NewClusterClient(gcfg)
	if err != nil {
		log.Fatal(err)
	}
	holds := fraud.New(g, 72*time.Hour)
	lb := boards.New(g, 100)

	// Values: distinct ids on different slots.
	const (
		a, b   = keys.MemberID("m-1001"), keys.MemberID("m-2002")
		s1, s2 = keys.StoreID("s-17"), keys.StoreID("s-42")
		r1, r2 = keys.RewardID("r-100"), keys.RewardID("r-200")
		c1, c2 = keys.CampaignID("c-spring"), keys.CampaignID("c-summer")
		day    = keys.Day("2026-07-01")
		month  = "2026-07"
	)
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	item1 := rewards.Item{ID: r1, Title: "Coffee mug", Cost: 500, Category: "home"}

	cases := []testCase{
		{"L1", func(ctx context.Context) error { return led.Accrue(ctx, a, "o-1", 100) }},
		{"L2", func(ctx context.Context) error { return led.AccrueAtStore(ctx, a, s1, 100) }},
		{"L3", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			return led.Debit(ctx, a, 40, "redeem")
		}},
		{"L4", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			return led.Transfer(ctx, a, b, 40)
		}},
		{"L5", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			_, err := led.TransferAtomic(ctx, a, b, 40)
			return err
		}},
		{"L6", func(ctx context.Context) error { return led.Gift(ctx, a, b, 40) }},
		{"L7", func(ctx context.Context) error { _, err := led.Balances(ctx, a, b); return err }},
		{"L8", func(ctx context.Context) error { _, err := led.Summary(ctx, a); return err }},
		{"L9", func(ctx context.Context) error { _, err := led.MarkOrders(ctx, "o-1", "o-2"); return err }},
		{"L10", func(ctx context.Context) error { _, err := led.MarkStoreOrders(ctx, s1, day, "o-1", "o-2"); return err }},
		{"L11", func(ctx context.Context) error { return led.Contribute(ctx, "hh-7", a, 10) }},
		{"L12", func(ctx context.Context) error { return led.JoinHousehold(ctx, "hh-7", a) }},
		{"L13", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			return led.Forget(ctx, a)
		}},
		{"L14", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			must(led.Accrue(ctx, b, "o-2", 100))
			return led.MergeMembers(ctx, a, b)
		}},
		{"L15", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			return led.ArchiveEntries(ctx, a, 2025)
		}},
		{"L16", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			_, err := sweeper.ExpireMember(ctx, a, time.Now().Add(2*365*24*time.Hour))
			return err
		}},
		{"L17", func(ctx context.Context) error {
			must(led.Accrue(ctx, b, "o-2", 100))
			_, err := sweeper.ExpireMemberReported(ctx, b, time.Now().Add(2*365*24*time.Hour))
			return err
		}},
		{"L18", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 100))
			must(led.Accrue(ctx, b, "o-2", 100))
			return sweeper.ExpireAll(ctx, []keys.MemberID{a, b}, time.Now().Add(2*365*24*time.Hour))
		}},
		{"L19", func(ctx context.Context) error {
			must(sweeper.Schedule(ctx, a, day))
			_, err := sweeper.MarkDone(ctx, a, day)
			return err
		}},
		{"L20", func(ctx context.Context) error {
			must(sweeper.SchedulePending(ctx, a, day))
			_, err := sweeper.Finish(ctx, a, day)
			return err
		}},
		{"L21", func(ctx context.Context) error {
			must(sweeper.Enqueue(ctx, a))
			_, err := sweeper.Claim(ctx)
			return err
		}},
		{"L22", func(ctx context.Context) error {
			must(sweeper.EnqueueTagged(ctx, a))
			_, err := sweeper.ClaimTagged(ctx)
			return err
		}},
		{"L23", func(ctx context.Context) error { return tierSvc.Promote(ctx, a, tiers.Gold, now) }},
		{"L24", func(ctx context.Context) error { return tierSvc.SetTier(ctx, a, tiers.Gold, now) }},
		{"L25", func(ctx context.Context) error {
			must(tierSvc.Join(ctx, a, tiers.Gold, month))
			_, err := tierSvc.ActiveInTier(ctx, tiers.Gold, month)
			return err
		}},
		{"L26", func(ctx context.Context) error {
			must(tierSvc.Join(ctx, a, tiers.Gold, month))
			_, err := tierSvc.ActiveInTierMonthly(ctx, tiers.Gold, month)
			return err
		}},
		{"L27", func(ctx context.Context) error { _, err := tierSvc.Recompute(ctx, ks, a); return err }},
		{"L28", func(ctx context.Context) error {
			must(led.Accrue(ctx, a, "o-1", 30_000))
			_, err := tierSvc.RecomputeTagged(ctx, ks, a)
			return err
		}},
		{"L29", func(ctx context.Context) error { _, err := tierSvc.Assign(ctx, a, tiers.Gold); return err }},
		{"L30", func(ctx context.Context) error {
			must(tierSvc.SetTier(ctx, a, tiers.Gold, now))
			_, _, err := tierSvc.History(ctx, a)
			return err
		}},
		{"L31", func(ctx context.Context) error {
			must(cache.Warm(ctx, map[keys.MemberID]profile.Profile{a: {Name: "Ann"}}))
			_, err := cache.GetMany(ctx, []keys.MemberID{a, b})
			return err
		}},
		{"L32", func(ctx context.Context) error {
			return cache.Warm(ctx, map[keys.MemberID]profile.Profile{a: {Name: "Ann"}, b: {Name: "Bob"}})
		}},
		{"L33", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			must(led.Accrue(ctx, a, "o-1", 1000))
			_, err := catalog.Redeem(ctx, a, item1)
			return err
		}},
		{"L34", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			_, err := catalog.Reserve(ctx, r1, a, now.Unix())
			return err
		}},
		{"L35", func(ctx context.Context) error { return catalog.Put(ctx, item1, 5) }},
		{"L36", func(ctx context.Context) error { return catalog.Restock(ctx, map[keys.RewardID]int64{r1: 5, r2: 3}) }},
		{"L37", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			_, err := catalog.StockLevels(ctx, r1, r2)
			return err
		}},
		{"L38", func(ctx context.Context) error { _, err := catalog.Stocks(ctx, r1, r2); return err }},
		{"L39", func(ctx context.Context) error { _, err := catalog.StocksByKey(ctx, r1, r2); return err }},
		{"L40", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			_, err := catalog.Reserve(ctx, r1, a, now.Unix())
			must(err)
			return catalog.Claim(ctx, r1, a)
		}},
		{"L41", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			_, err := catalog.Reserve(ctx, r1, a, now.Unix())
			must(err)
			return catalog.Release(ctx, r1, a)
		}},
		{"L42", func(ctx context.Context) error {
			must(catalog.Put(ctx, item1, 5))
			return catalog.Retire(ctx, r1)
		}},
		{"L43", func(ctx context.Context) error {
			must(catalog.AddToCategory(ctx, r1, "electronics"))
			_, err := catalog.Recategorize(ctx, r1, "electronics", "clearance")
			return err
		}},
		{"L44", func(ctx context.Context) error {
			must(catalog.Shelve(ctx, r1, "electronics"))
			_, err := catalog.Reshelve(ctx, r1, "electronics", "clearance")
			return err
		}},
		{"L45", func(ctx context.Context) error {
			must(catalog.CountRedeemer(ctx, r1, a))
			must(catalog.CountRedeemer(ctx, r2, b))
			_, err := catalog.UniqueRedeemers(ctx, r1, r1, r2)
			return err
		}},
		{"L46", func(ctx context.Context) error {
			must(catalog.Feature(ctx, r1, 5))
			must(catalog.Feature(ctx, r2, 9))
			_, err := catalog.Featured(ctx)
			return err
		}},
		{"L47", func(ctx context.Context) error { return partnerReg.Enroll(ctx, s1, a) }},
		{"L48", func(ctx context.Context) error { return partnerReg.RecordVisit(ctx, s1, a, 50) }},
		{"L49", func(ctx context.Context) error { _, err := partnerReg.Sizes(ctx, s1, s2); return err }},
		{"L50", func(ctx context.Context) error {
			must(partnerReg.RecordVisit(ctx, s1, a, 50))
			_, err := partnerReg.Settle(ctx, s1)
			return err
		}},
		{"L51", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			_, err := engine.ActiveFlags(ctx, c1, c2)
			return err
		}},
		{"L52", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			_, _, err := engine.Settings(ctx, c1)
			return err
		}},
		{"L53", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			must(engine.Launch(ctx, c2, 1000, 3))
			_, err := engine.Multipliers(ctx, c1, c2)
			return err
		}},
		{"L54", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			_, err := engine.Spend(ctx, c1, 10)
			return err
		}},
		{"L55", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			_, err := engine.SpendAtPartner(ctx, c1, s1, 10)
			return err
		}},
		{"L56", func(ctx context.Context) error {
			must(partnerReg.RecordVisit(ctx, s1, a, 50))
			must(partnerReg.RecordVisit(ctx, s2, b, 50))
			_, err := engine.Reach(ctx, c1, s1, s2)
			return err
		}},
		{"L57", func(ctx context.Context) error {
			must(engine.SaveLegacyDraft(ctx, c1, `{"x":2}`))
			return engine.PublishLegacy(ctx, c1)
		}},
		{"L58", func(ctx context.Context) error {
			must(engine.SaveDraft(ctx, c1, `{"x":2}`))
			return engine.Publish(ctx, c1)
		}},
		{"L59", func(ctx context.Context) error {
			must(engine.Launch(ctx, c1, 1000, 2))
			must(partnerReg.RecordVisit(ctx, s1, a, 50))
			return engine.Reimburse(ctx, c1, s1, 10)
		}},
		{"L60", func(ctx context.Context) error { return holds.Place(ctx, a, "card-sharing", now) }},
		{"L61", func(ctx context.Context) error { return holds.PlaceExpiring(ctx, a, "card-sharing", now) }},
		{"L62", func(ctx context.Context) error {
			must(holds.PlaceExpiring(ctx, a, "x", now))
			must(holds.PlaceExpiring(ctx, b, "x", now))
			return holds.ReleaseAll(ctx, a, b)
		}},
		{"L63", func(ctx context.Context) error {
			must(holds.PlaceExpiring(ctx, a, "x", now))
			_, err := holds.Held(ctx, a, b)
			return err
		}},
		{"L64", func(ctx context.Context) error { return holds.LinkDevice(ctx, a, "dev-9") }},
		{"L65", func(ctx context.Context) error {
			must(holds.AddDevice(ctx, a, "dev-9"))
			must(holds.AddDevice(ctx, b, "dev-9"))
			_, err := holds.SharedDevices(ctx, a, b)
			return err
		}},
		{"L66", func(ctx context.Context) error {
			must(holds.AddDevice(ctx, a, "dev-9"))
			_, err := holds.KeptDevices(ctx, a)
			return err
		}},
		{"L67", func(ctx context.Context) error { _, err := holds.CheckVelocity(ctx, a, time.Hour, 20, now); return err }},
		{"L68", func(ctx context.Context) error {
			must(holds.PlaceExpiring(ctx, a, "x", now))
			_, err := holds.Escalate(ctx, a, now)
			return err
		}},
		{"L69", func(ctx context.Context) error { return holds.MergeCheck(ctx, a, b, now) }},
		{"L70", func(ctx context.Context) error { _, err := holds.Freeze(ctx, "ring", a, b); return err }},
		{"L71", func(ctx context.Context) error { return holds.MarkReviewed(ctx, "ana", a, b) }},
		{"L72", func(ctx context.Context) error {
			return holds.Purge(ctx, "fraud:hold:{m-1001}", "fraud:hold:{m-2002}")
		}},
		{"L73", func(ctx context.Context) error {
			must(lb.AddWeekly(ctx, month, 1, "2026-W27", a, 10))
			must(lb.AddWeekly(ctx, month, 2, "2026-W28", b, 10))
			_, err := lb.RollupMonth(ctx, month, "2026-W27", "2026-W28")
			return err
		}},
		{"L74", func(ctx context.Context) error {
			must(lb.AddWeekly(ctx, month, 1, "2026-W27", a, 10))
			must(lb.AddWeekly(ctx, month, 2, "2026-W28", b, 10))
			_, err := lb.RollupMonthV2(ctx, month, 2)
			return err
		}},
		{"L75", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			_, err := lb.RefreshTop(ctx, "b-spring")
			return err
		}},
		{"L76", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			_, err := lb.PublishTop(ctx, "b-spring")
			return err
		}},
		{"L77", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			_, err := lb.Snapshot(ctx, "b-spring", day)
			return err
		}},
		{"L78", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			_, err := lb.Archive(ctx, "b-spring", day)
			return err
		}},
		{"L79", func(ctx context.Context) error {
			return lb.Award(ctx, "b-spring", ks, map[keys.MemberID]int64{a: 500, b: 300})
		}},
		{"L80", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			return lb.Close(ctx, "b-spring")
		}},
		{"L81", func(ctx context.Context) error {
			must(lb.Add(ctx, "b-spring", a, 10))
			must(lb.Add(ctx, "b-summer", a, 10))
			_, err := lb.Overlap(ctx, slices.Values([]string{"lb:{b-spring}:scores", "lb:{b-summer}:scores"}))
			return err
		}},
	}

	ids := map[string]bool{}
	for _, c := range cases {
		if ids[c.id] {
			log.Fatalf("duplicate case %s", c.id)
		}
		ids[c.id] = true
		flush(ctx, cc, plain)
		err := runCase(ctx, c)
		if err != nil {
			fmt.Fprintf(out, "%s error: %s\n", c.id, strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Fprintf(out, "%s ok\n", c.id)
		}
	}
	flush(ctx, cc, plain)
	vk.Close()
	g.Close()
}

type setupError struct{ err error }

func must(err error) {
	if err != nil {
		panic(setupError{err})
	}
}

func runCase(ctx context.Context, c testCase) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if se, ok := r.(setupError); ok {
				err = fmt.Errorf("SETUP FAILED: %v", se.err)
				return
			}
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.run(ctx)
}

func flush(ctx context.Context, cc *redis.ClusterClient, plain *redis.Client) {
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		return n.FlushAll(ctx).Err()
	}); err != nil {
		log.Fatalf("flush cluster: %v", err)
	}
	if err := plain.FlushAll(ctx).Err(); err != nil {
		log.Fatalf("flush plain: %v", err)
	}
}
