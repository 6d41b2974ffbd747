//go:build verify

// Command verify runs every labelled function against a live three-master
// cluster (and the plain config server), wired as cmd/fleetd wires them, and
// prints "ID ok" or "ID error: <text>" per case.
package main

import (
	"context"
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
	"github.com/redis/rueidis/rueidiscompat"

	"example.com/fleet/internal/chat"
	"example.com/fleet/internal/dispatch"
	"example.com/fleet/internal/drivers"
	"example.com/fleet/internal/flags"
	"example.com/fleet/internal/geo"
	"example.com/fleet/internal/idem"
	"example.com/fleet/internal/keys"
	"example.com/fleet/internal/payments"
	"example.com/fleet/internal/surge"
	"example.com/fleet/internal/trips"
)

type kase struct {
	id  string
	run func(ctx context.Context) error
}

func main() {
	clusterAddrs := flag.String("cluster", "127.0.0.1:17601,127.0.0.1:17602,127.0.0.1:17603", "cluster seed addresses")
	plainAddr := flag.String("plain", "127.0.0.1:17610", "plain (config) Redis")
	only := flag.String("only", "", "comma-separated case ids to run")
	flag.Parse()
	addrs := strings.Split(*clusterAddrs, ",")
	ctx := context.Background()

	// ---- wiring, as in cmd/fleetd ----
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second})
	cfg := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{*plainAddr}})
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		log.Fatal(err)
	}
	cluster := &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redigo.DialOption{redigo.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return &redigo.Pool{MaxIdle: 8, IdleTimeout: time.Minute,
				Dial: func() (redigo.Conn, error) { return redigo.Dial("tcp", addr, opts...) }}, nil
		},
	}
	if err := cluster.Refresh(); err != nil {
		log.Fatal(err)
	}

	drv := drivers.New(rdb, drivers.Options{PresenceTTL: 2 * time.Minute})
	tripStore := trips.NewRedisStore(rdb, trips.Options{HashTags: true})
	receipts := trips.NewReceipts(rdb, trips.Options{})
	history := trips.NewHistory(rdb)
	queue := dispatch.NewQueue(rdb, "sf")
	offers := dispatch.NewOffers(rdb, 15*time.Second)
	ranker := dispatch.NewRanker(rdb)
	engine := surge.New(rc, rueidiscompat.NewAdapter(rc))
	index := geo.New(rc, 3)
	holds := payments.NewHolds(cluster)
	chatSvc := chat.New(rdb)
	idemStore := idem.New(rdb, 24*time.Hour)
	defaults := flags.NewRedisStore(cfg, "flag:")
	overrides := flags.NewOverrides(rdb, "prod")

	// ---- values: distinct ids on different slots ----
	d1, d2 := keys.DriverID("d-1001"), keys.DriverID("d-2002")
	v1 := keys.VehicleID("v-77")
	r1 := keys.RiderID("r-501")
	t1, t2 := keys.TripID(9001), keys.TripID(9002)
	cell, cell2 := keys.CellID("sf-12-40"), keys.CellID("sf-13-40")
	trip := trips.Trip{ID: t1, Rider: r1, Driver: d1, Cell: cell}
	conv := chat.Conversation{Trip: t1, Rider: r1, Driver: d1}
	ik := idem.Key{Scope: "payments", Value: "k-abc123"}
	online := []keys.DriverID{"d-1", "d-2", "d-3", "d-4", "d-5", "d-6", "d-7", "d-8"}

	countOnline := func(f func(context.Context) ([]keys.DriverID, error)) func(context.Context) error {
		return func(ctx context.Context) error {
			for _, id := range online {
				if err := drv.GoOnlineV2(ctx, id, "37.77,-122.41"); err != nil {
					return err
				}
			}
			got, err := f(ctx)
			if err != nil {
				return err
			}
			if len(got) != len(online) {
				return fmt.Errorf("saw %d of %d online drivers", len(got), len(online))
			}
			return nil
		}
	}

	cases := []kase{
		// drivers
		{"F1", func(ctx context.Context) error { return drv.GoOnline(ctx, d1, "37.77,-122.41") }},
		{"F2", func(ctx context.Context) error { return drv.GoOnlineV2(ctx, d1, "37.77,-122.41") }},
		{"F3", func(ctx context.Context) error { _, err := drv.Snapshot(ctx, d1); return err }},
		{"F4", func(ctx context.Context) error { _, err := drv.SnapshotV2(ctx, d1); return err }},
		{"F5", func(ctx context.Context) error { _, err := drv.AssignVehicle(ctx, d1, v1); return err }},
		{"F6", func(ctx context.Context) error {
			rdb.SAdd(ctx, "{fleet:vehicles}:free", string(v1))
			_, err := drv.AssignVehicleV2(ctx, d1, v1)
			return err
		}},
		{"F7", func(ctx context.Context) error { _, err := drv.BulkStatus(ctx, []keys.DriverID{d1, d2}); return err }},
		{"F8", func(ctx context.Context) error {
			_, err := drv.BulkStatusPipelined(ctx, []keys.DriverID{d1, d2})
			return err
		}},
		{"F9", func(ctx context.Context) error { return drv.Offboard(ctx, d1) }},
		{"F10", func(ctx context.Context) error { return drv.OffboardV2(ctx, d1) }},
		{"F11", countOnline(drv.OnlineDrivers)},
		{"F12", countOnline(drv.OnlineDriversAllNodes)},
		{"F13", func(ctx context.Context) error { _, err := drv.VehicleService(ctx, v1); return err }},
		{"F14", func(ctx context.Context) error { _, err := drv.VehicleServiceV2(ctx, v1); return err }},
		// trips
		{"F15", func(ctx context.Context) error { return tripStore.Start(ctx, trip) }},
		{"F16", func(ctx context.Context) error { return tripStore.StartV2(ctx, trip) }},
		{"F17", func(ctx context.Context) error { return tripStore.Complete(ctx, t1, 1850) }},
		{"F18", func(ctx context.Context) error { return tripStore.CompleteV2(ctx, trip, 1850) }},
		{"F19", func(ctx context.Context) error { return tripStore.Cancel(ctx, trip) }},
		{"F20", func(ctx context.Context) error { return tripStore.Archive(ctx, t1) }},
		{"F21", func(ctx context.Context) error {
			if err := tripStore.StartV2(ctx, trip); err != nil {
				return err
			}
			return tripStore.ArchiveV2(ctx, t1)
		}},
		{"F22", func(ctx context.Context) error { _, _, err := tripStore.Quote(ctx, t1); return err }},
		{"F23", func(ctx context.Context) error { _, err := receipts.Totals(ctx, t1); return err }},
		{"F24", func(ctx context.Context) error { _, err := history.Shared(ctx, r1, d1); return err }},
		{"F25", func(ctx context.Context) error { _, err := history.Recent(ctx, r1, 2024, 2025); return err }},
		{"F26", func(ctx context.Context) error { _, err := history.Pair(ctx, t1, t2); return err }},
		{"F27", func(ctx context.Context) error { _, err := history.DocAndReceipt(ctx, t1); return err }},
		// dispatch
		{"F28", func(ctx context.Context) error {
			if err := queue.Push(ctx, t1); err != nil {
				return err
			}
			_, err := queue.Claim(ctx, 30*time.Second)
			return err
		}},
		{"F29", func(ctx context.Context) error {
			q := dispatch.NewCellQueue(rdb, cell)
			if err := q.Push(ctx, t1); err != nil {
				return err
			}
			_, err := q.Claim(ctx, 30*time.Second)
			return err
		}},
		{"F30", func(ctx context.Context) error { _, err := offers.Offer(ctx, t1, d1); return err }},
		{"F31", func(ctx context.Context) error { _, err := offers.OfferV2(ctx, t1, d1); return err }},
		{"F32", func(ctx context.Context) error {
			// d-2002's inbox (slot 5195) is on another node than trip:{9001}:offer (slot 14812).
			if _, err := offers.OfferV2(ctx, t1, d2); err != nil {
				return err
			}
			n, err := offers.Notify(ctx, t1, d2, `{"trip":9001}`)
			if err == nil && n != 1 {
				return fmt.Errorf("offer not held")
			}
			return err
		}},
		{"F33", func(ctx context.Context) error {
			if _, err := offers.OfferV2(ctx, t1, d1); err != nil {
				return err
			}
			n, err := offers.NotifyV2(ctx, t1, d1, `{"trip":9001}`)
			if err == nil && n != 1 {
				return fmt.Errorf("offer not held")
			}
			return err
		}},
		{"F34", func(ctx context.Context) error { _, err := offers.Release(ctx, t1); return err }},
		{"F35", func(ctx context.Context) error { _, err := offers.ReleaseV2(ctx, t1); return err }},
		{"F36", func(ctx context.Context) error {
			rdb.RPush(ctx, "cell:"+string(cell)+":candidates", string(d1), string(d2))
			_, err := ranker.Top(ctx, cell, 5)
			return err
		}},
		{"F37", func(ctx context.Context) error { _, err := ranker.TopV2(ctx, cell, 5); return err }},
		{"F38", func(ctx context.Context) error {
			rdb.RPush(ctx, "cell:{"+string(cell)+"}:entries", "4.91|d-1001", "4.75|d-2002")
			_, err := ranker.TopByScore(ctx, cell, 5)
			return err
		}},
		{"F39", func(ctx context.Context) error { return queue.Requeue(ctx, t1) }},
		{"F40", func(ctx context.Context) error { return dispatch.NewCellQueue(rdb, cell).Requeue(ctx, t1) }},
		// surge
		{"F41", func(ctx context.Context) error { _, err := engine.Multiplier(ctx, cell); return err }},
		{"F42", func(ctx context.Context) error { _, err := engine.MultiplierV2(ctx, cell); return err }},
		{"F43", func(ctx context.Context) error { return engine.Store(ctx, cell, 1.4) }},
		{"F44", func(ctx context.Context) error { return engine.StoreV2(ctx, cell, 1.4) }},
		{"F45", func(ctx context.Context) error {
			return engine.Publish(ctx, map[keys.CellID]float64{cell: 1.4, cell2: 1.1, "sf-11-40": 1.0})
		}},
		{"F46", func(ctx context.Context) error {
			_, err := engine.Heatmap(ctx, []keys.CellID{cell, cell2, "sf-11-40"})
			return err
		}},
		{"F47", func(ctx context.Context) error { _, err := engine.Recompute(ctx, cell); return err }},
		{"F48", func(ctx context.Context) error { _, err := engine.RecomputeV2(ctx, cell); return err }},
		{"F49", func(ctx context.Context) error { return engine.Bump(ctx, cell) }},
		{"F50", func(ctx context.Context) error { return engine.BumpV2(ctx, cell) }},
		{"F51", func(ctx context.Context) error { _, err := engine.Compare(ctx, cell, cell2); return err }},
		{"F52", func(ctx context.Context) error { _, err := engine.CompareV2(ctx, cell, cell2); return err }},
		// geo
		{"F53", func(ctx context.Context) error {
			if err := index.Enter(ctx, d1, cell); err != nil {
				return err
			}
			_, err := index.Move(ctx, d1, cell, cell2)
			return err
		}},
		{"F54", func(ctx context.Context) error {
			if err := index.Enter(ctx, d1, cell); err != nil {
				return err
			}
			return index.MoveV2(ctx, d1, cell, cell2)
		}},
		{"F55", func(ctx context.Context) error { _, err := index.Nearby(ctx, cell); return err }},
		{"F56", func(ctx context.Context) error { _, err := index.NearbyV2(ctx, cell); return err }},
		{"F57", func(ctx context.Context) error {
			if err := index.Report(ctx, "sf", d1, -122.41, 37.77); err != nil {
				return err
			}
			_, err := index.NearRider(ctx, "sf", r1, -122.42, 37.77)
			return err
		}},
		{"F58", func(ctx context.Context) error {
			if err := index.Report(ctx, "sf", d1, -122.41, 37.77); err != nil {
				return err
			}
			_, err := index.NearRiderV2(ctx, "sf", r1, -122.42, 37.77)
			return err
		}},
		{"F59", func(ctx context.Context) error {
			if err := index.Enter(ctx, d1, cell); err != nil {
				return err
			}
			_, err := index.Split(ctx, cell, 2)
			return err
		}},
		{"F60", func(ctx context.Context) error {
			if err := index.Enter(ctx, d1, cell); err != nil {
				return err
			}
			_, err := index.SplitV2(ctx, cell, 2)
			return err
		}},
		// payments
		{"F61", func(ctx context.Context) error { return holds.Place(r1, t1, 2500) }},
		{"F62", func(ctx context.Context) error { return holds.PlaceV2(r1, t1, 2500) }},
		{"F63", func(ctx context.Context) error { return holds.Capture(t1) }},
		{"F64", func(ctx context.Context) error {
			if err := holds.PlaceV2(r1, t1, 2500); err != nil {
				return err
			}
			return holds.CaptureV2(t1)
		}},
		{"F65", func(ctx context.Context) error { _, err := holds.Settle(r1, t1); return err }},
		{"F66", func(ctx context.Context) error {
			if err := holds.PlaceV2(r1, t1, 2500); err != nil {
				return err
			}
			_, err := holds.SettleV2(t1)
			return err
		}},
		{"F67", func(ctx context.Context) error { return holds.Void(t1) }},
		{"F68", func(ctx context.Context) error { return holds.VoidV2(t1) }},
		{"F69", func(ctx context.Context) error { _, _, err := holds.Balance(r1); return err }},
		{"F70", func(ctx context.Context) error {
			rdb.Set(ctx, "wallet:{r-501}:balance", 10000, 0)
			rdb.Set(ctx, "wallet:{r-501}:held", 2500, 0)
			_, _, err := holds.BalanceV2(r1)
			return err
		}},
		{"F71", func(ctx context.Context) error {
			if err := holds.PlaceV2(r1, t1, 2500); err != nil {
				return err
			}
			return holds.ArchiveSettled(t1)
		}},
		// chat
		{"F72", func(ctx context.Context) error { return chatSvc.Send(ctx, conv, string(d1), "on my way") }},
		{"F73", func(ctx context.Context) error { return chatSvc.SendV2(ctx, conv, string(d1), "on my way") }},
		{"F74", func(ctx context.Context) error {
			ps, err := chatSvc.Listen(ctx, conv)
			if err == nil {
				ps.Close()
			}
			return err
		}},
		{"F75", func(ctx context.Context) error {
			ps, err := chatSvc.ListenV2(ctx, conv)
			if err == nil {
				ps.Close()
			}
			return err
		}},
		{"F76", func(ctx context.Context) error { return chatSvc.MarkRead(ctx, conv) }},
		{"F77", func(ctx context.Context) error { return chatSvc.MarkReadV2(ctx, conv) }},
		{"F78", func(ctx context.Context) error { _, _, err := chatSvc.Presence(ctx, conv); return err }},
		{"F79", func(ctx context.Context) error { _, _, err := chatSvc.PresenceV2(ctx, conv); return err }},
		// idempotency
		{"F80", func(ctx context.Context) error { _, _, err := idemStore.Reserve(ctx, ik, "req-1"); return err }},
		{"F81", func(ctx context.Context) error { _, _, err := idemStore.ReserveV2(ctx, ik, "req-1"); return err }},
		{"F82", func(ctx context.Context) error { return idemStore.Complete(ctx, ik, `{"ok":true}`) }},
		{"F83", func(ctx context.Context) error { return idemStore.CompleteV2(ctx, ik, `{"ok":true}`) }},
		{"F84", func(ctx context.Context) error { _, err := idemStore.FetchLegacy(ctx, ik); return err }},
		{"F85", func(ctx context.Context) error { return idemStore.Forget(ctx, ik) }},
		// flags
		{"F86", func(ctx context.Context) error {
			_, err := defaults.Get(ctx, "surge_v2", "chat_v2", "cash_rides")
			return err
		}},
		{"F87", func(ctx context.Context) error {
			return defaults.Put(ctx, map[string]bool{"surge_v2": true, "chat_v2": false, "cash_rides": true})
		}},
		{"F88", func(ctx context.Context) error { _, err := overrides.ForCity(ctx, "surge_v2", "sf"); return err }},
		{"F89", func(ctx context.Context) error { _, err := overrides.ForCityV2(ctx, "surge_v2", "sf"); return err }},
		{"F90", func(ctx context.Context) error { return overrides.Rollout(ctx, "surge_v2", 25) }},
		{"F91", func(ctx context.Context) error { return overrides.RolloutV2(ctx, "surge_v2", 25) }},
	}

	want := map[string]bool{}
	for _, id := range strings.Split(*only, ",") {
		if id != "" {
			want[id] = true
		}
	}
	flush := func() {
		cc := rdb.(*redis.ClusterClient)
		if err := cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			return n.FlushAll(ctx).Err()
		}); err != nil {
			log.Fatalf("flush cluster: %v", err)
		}
		if err := cfg.FlushAll(ctx).Err(); err != nil {
			log.Fatalf("flush plain: %v", err)
		}
	}
	for _, c := range cases {
		if len(want) > 0 && !want[c.id] {
			continue
		}
		flush()
		err := runCase(ctx, c)
		if err != nil {
			fmt.Printf("%s error: %s\n", c.id, strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Printf("%s ok\n", c.id)
		}
	}
	flush()
	rdb.Close()
	cfg.Close()
	rc.Close()
	cluster.Close()
	os.Exit(0)
}

func runCase(ctx context.Context, c kase) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.run(ctx)
}
