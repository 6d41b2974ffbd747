//go:build verify

// Command verify runs every labelled function against a live cluster and prints
// one line per case.
package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"

	"example.com/parcel/internal/couriers"
	"example.com/parcel/internal/keys"
	"example.com/parcel/internal/lockers"
	"example.com/parcel/internal/pickup"
	"example.com/parcel/internal/platform"
	"example.com/parcel/internal/reports"
)

const (
	central keys.StationID = "central"
	harbour keys.StationID = "harbour"
	p1      keys.ParcelID  = "p1001"
	p2      keys.ParcelID  = "p2002"
	c7      keys.CourierID = "c7"
	c9      keys.CourierID = "c9"
)

func main() {
	clusterAddrs := flag.String("cluster", "127.0.0.1:7501,127.0.0.1:7502,127.0.0.1:7503", "cluster nodes")
	archiveAddr := flag.String("archive", "127.0.0.1:7504", "plain server")
	flag.Parse()
	ctx := context.Background()
	nodes := strings.Split(*clusterAddrs, ",")
	ks := keys.Space{Prefix: "parcel"}

	live := redis.NewClusterClient(&redis.ClusterOptions{Addrs: nodes})
	archive := redis.NewClient(&redis.Options{Addr: *archiveAddr})
	cl, err := platform.NewCluster(nodes, platform.PoolConfig{MaxIdle: 4, MaxActive: 16, IdleTimeout: time.Minute})
	if err != nil {
		panic(err)
	}

	st := lockers.New(live, ks, lockers.Options{})
	tr := couriers.NewTracker(live, ks)
	codes := pickup.NewCodes(cl, ks, time.Hour)
	rep := reports.NewReporter(live, archive, ks)

	flush := func() {
		if err := live.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
			return c.FlushAll(ctx).Err()
		}); err != nil {
			panic(err)
		}
		if err := archive.FlushAll(ctx).Err(); err != nil {
			panic(err)
		}
	}
	seedFree := func(stations ...keys.StationID) {
		for _, s := range stations {
			live.SAdd(ctx, ks.StationFree(s), 1, 2, 3)
		}
	}

	type tc struct {
		id  string
		run func() error
	}
	cases := []tc{
		{"K1", func() error { return st.AddLockers(ctx, central, 1, 2, 3) }},
		{"K2", func() error { seedFree(central); _, err := st.DropOff(ctx, central, p1); return err }},
		{"K3", func() error { seedFree(central); _, err := st.DropOffAtStation(ctx, central, p1); return err }},
		{"K4", func() error {
			live.SAdd(ctx, ks.StationBusy(central), 2)
			_, err := st.Release(ctx, central, 2)
			return err
		}},
		{"K5", func() error { seedFree(central); _, err := st.MoveLocker(ctx, central, harbour, 2); return err }},
		{"K6", func() error { seedFree(central, harbour); _, err := st.FreeAcross(ctx, central, harbour); return err }},
		{"K7", func() error { seedFree(central, harbour); _, err := st.FreeCount(ctx, central, harbour); return err }},
		{"K8", func() error { _, err := st.ParcelStates(ctx, p1, p2); return err }},
		{"K9", func() error {
			return st.SetStates(ctx, central, map[keys.ParcelID]string{p1: "in_locker", p2: "picked_up"})
		}},
		{"K10", func() error { return st.MarkDelivered(ctx, p1, p2) }},
		{"K11", func() error { return st.Forget(ctx, p1) }},
		{"K12", func() error { return st.ForgetAtStation(ctx, central, p1) }},
		{"K13", func() error {
			live.HSet(ctx, ks.Parcel(p1), "state", "picked_up")
			return st.Archive(ctx, central, p1)
		}},
		{"K14", func() error {
			live.Set(ctx, ks.Locker(central, 1), string(p1), 0)
			return st.Reassign(ctx, central, 1, 2)
		}},
		{"K15", func() error {
			live.HSet(ctx, ks.StationParcel(central, p1), "state", "in_locker")
			return st.Redirect(ctx, central, harbour, p1)
		}},
		{"K16", func() error {
			live.RPush(ctx, ks.StationInbox(central), string(p1))
			_, err := tr.Load(ctx, c7, central)
			return err
		}},
		{"K17", func() error { _, err := tr.Scan(ctx, c7, p1, time.Now()); return err }},
		{"K18", func() error {
			live.SAdd(ctx, ks.CourierBag(c7), string(p1), string(p2))
			_, err := tr.Unload(ctx, c7)
			return err
		}},
		{"K19", func() error {
			live.RPush(ctx, ks.CourierRoute(c7), string(central))
			_, err := tr.FinishRoute(ctx, c7)
			return err
		}},
		{"K20", func() error {
			live.RPush(ctx, ks.CourierRoute(c7), string(p1))
			_, err := tr.NextStop(ctx, c7, central)
			return err
		}},
		{"K21", func() error {
			live.SAdd(ctx, ks.CourierBag(c7), string(p1))
			live.SAdd(ctx, ks.CourierBag(c9), string(p2))
			_, err := tr.Handover(ctx, c7, c9)
			return err
		}},
		{"K22", func() error {
			live.SAdd(ctx, ks.CourierBag(c7), string(p1), string(p2))
			live.SAdd(ctx, ks.CourierSeen(c7), string(p1))
			_, err := tr.Reconcile(ctx, c7)
			return err
		}},
		{"K23", func() error { return tr.Plan(ctx, c7, []keys.StationID{central, harbour}) }},
		{"K24", func() error { return codes.Issue("482913", p1) }},
		{"K25", func() error { return codes.IssueAt(central, "482913", p1) }},
		{"K26", func() error { return codes.IssueQuick("482913", p1) }},
		{"K27", func() error {
			live.Set(ctx, ks.Code("482913"), string(p1), 0)
			_, err := codes.Redeem("482913", p1)
			return err
		}},
		{"K28", func() error {
			live.Set(ctx, ks.StationCode(central, "482913"), string(p1), 0)
			_, err := codes.RedeemAt(central, "482913", p1)
			return err
		}},
		{"K29", func() error {
			live.Set(ctx, ks.Code("482913"), string(p1), 0)
			live.Set(ctx, ks.Code("730155"), string(p2), 0)
			_, err := codes.Lookup("482913", "730155")
			return err
		}},
		{"K30", func() error {
			live.Set(ctx, ks.Code("482913"), string(p1), 0)
			live.Set(ctx, ks.Code("730155"), string(p2), 0)
			_, err := codes.LookupSplit("482913", "730155")
			return err
		}},
		{"K31", func() error {
			live.Set(ctx, ks.Code("482913"), string(p1), 0)
			return codes.Revoke("482913")
		}},
		{"K32", func() error {
			live.Set(ctx, ks.StationCode(central, "482913"), string(p1), 0)
			return codes.RevokeAt(central, "482913")
		}},
		{"K33", func() error {
			live.Set(ctx, ks.StationCode(central, "482913"), string(p1), 0)
			return codes.Rotate(central, "482913", "730155")
		}},
		{"K34", func() error {
			live.Set(ctx, ks.StationCode(central, "482913"), string(p1), 0)
			return codes.Transfer(central, harbour, "482913")
		}},
		{"K35", func() error {
			live.HSet(ctx, ks.StationCounters(central), "dropped", 4)
			return rep.Snapshot(ctx, central, "2026-12-05")
		}},
		{"K36", func() error {
			live.HSet(ctx, ks.StationCounters(central), "dropped", 4)
			return rep.SnapshotInStation(ctx, central, "2026-12-05")
		}},
		{"K37", func() error {
			live.HSet(ctx, ks.StationReport(central, "2026-12-05"), "dropped", 4)
			live.HSet(ctx, ks.StationReport(harbour, "2026-12-05"), "dropped", 9)
			return rep.Publish(ctx, "2026-12-05", central, harbour)
		}},
		{"K38", func() error { _, err := rep.ArchivedDays(ctx, "2026-12-04", "2026-12-05"); return err }},
		{"K39", func() error {
			live.SAdd(ctx, ks.StationFree(central), 1)
			live.SAdd(ctx, ks.StationFree(harbour), 2)
			live.SAdd(ctx, ks.Prefix+":report:sources", ks.StationFree(central), ks.StationFree(harbour))
			_, err := rep.Merge(ctx, ks.Prefix+":report:merged")
			return err
		}},
		{"K40", func() error { _, err := rep.Network(ctx, central); return err }},
	}

	for _, c := range cases {
		flush()
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return c.run()
		}()
		if err != nil && err != redis.Nil && err != redigo.ErrNil {
			fmt.Printf("%s error: %v\n", c.id, err)
		} else {
			fmt.Printf("%s ok\n", c.id)
		}
	}
	flush()
}
