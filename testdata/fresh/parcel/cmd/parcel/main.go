// Command parcel runs the parcel-locker API.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/parcel/internal/couriers"
	"example.com/parcel/internal/keys"
	"example.com/parcel/internal/lockers"
	"example.com/parcel/internal/pickup"
	"example.com/parcel/internal/platform"
	"example.com/parcel/internal/reports"
)

const keyPrefix = "parcel"

type app struct {
	lockers  *lockers.Store
	couriers *couriers.Tracker
	codes    *pickup.Codes
	reports  *reports.Reporter
}

func main() {
	clusterAddrs := flag.String("cluster", "127.0.0.1:7501,127.0.0.1:7502,127.0.0.1:7503", "cluster seed nodes")
	archiveAddr := flag.String("archive", "127.0.0.1:7504", "archive server (single node)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	nodes := strings.Split(*clusterAddrs, ",")
	ks := keys.Space{Prefix: keyPrefix}

	live := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:        nodes,
		ReadTimeout:  time.Second,
		WriteTimeout: time.Second,
	})
	defer live.Close()
	archive := redis.NewClient(&redis.Options{Addr: *archiveAddr})
	defer archive.Close()

	cluster, err := platform.NewCluster(nodes, platform.PoolConfig{MaxIdle: 8, MaxActive: 64, IdleTimeout: 5 * time.Minute})
	if err != nil {
		log.Fatalf("redisc: %v", err)
	}
	defer cluster.Close()

	a := &app{
		lockers:  lockers.New(live, ks, lockers.Options{ParcelTTL: 72 * time.Hour}),
		couriers: couriers.NewTracker(live, ks),
		codes:    pickup.NewCodes(cluster, ks, 14*24*time.Hour),
		reports:  reports.NewReporter(live, archive, ks),
	}
	if err := a.serve(ctx); err != nil {
		log.Fatal(err)
	}
}

func (a *app) serve(ctx context.Context) error {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			day := keys.Day(now.Add(-time.Hour))
			if err := a.reports.Publish(ctx, day, "central", "harbour"); err != nil {
				log.Printf("nightly report: %v", err)
			}
		}
	}
}
