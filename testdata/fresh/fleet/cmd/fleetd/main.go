// Command fleetd is the fleet backend: drivers, trips, dispatch, surge,
// payments holds, chat, idempotency and feature flags.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strconv"
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

type app struct {
	drivers   *drivers.Store
	trips     trips.Store
	receipts  *trips.Receipts
	history   *trips.History
	queue     *dispatch.Queue
	offers    *dispatch.Offers
	ranker    *dispatch.Ranker
	surge     *surge.Engine
	geo       *geo.Index
	holds     *payments.Holds
	chat      *chat.Service
	idem      *idem.Store
	defaults  flags.Store
	overrides *flags.Overrides
	rdb       redis.UniversalClient
}

func main() {
	var (
		clusterAddrs = flag.String("redis-cluster", "127.0.0.1:17601,127.0.0.1:17602,127.0.0.1:17603", "cluster seed addresses")
		configAddr   = flag.String("redis-config", "127.0.0.1:17610", "config Redis (feature flag defaults)")
		market       = flag.String("market", "sf", "market this instance dispatches")
		env          = flag.String("env", "prod", "environment name for flag rollouts")
		listen       = flag.String("listen", ":8080", "HTTP address")
	)
	flag.Parse()
	addrs := strings.Split(*clusterAddrs, ",")

	rdb := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:        addrs,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	defer rdb.Close()

	cfg := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{*configAddr}})
	defer cfg.Close()

	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		log.Fatalf("rueidis: %v", err)
	}
	defer rc.Close()

	cluster := &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redigo.DialOption{redigo.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return &redigo.Pool{
				MaxIdle:     8,
				IdleTimeout: time.Minute,
				Dial:        func() (redigo.Conn, error) { return redigo.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := cluster.Refresh(); err != nil {
		log.Fatalf("redisc: %v", err)
	}
	defer cluster.Close()

	a := &app{
		drivers:   drivers.New(rdb, drivers.Options{PresenceTTL: 2 * time.Minute}),
		trips:     trips.NewRedisStore(rdb, trips.Options{HashTags: true}),
		receipts:  trips.NewReceipts(rdb, trips.Options{}),
		history:   trips.NewHistory(rdb),
		queue:     dispatch.NewQueue(rdb, *market),
		offers:    dispatch.NewOffers(rdb, 15*time.Second),
		ranker:    dispatch.NewRanker(rdb),
		surge:     surge.New(rc, rueidiscompat.NewAdapter(rc)),
		geo:       geo.New(rc, 3),
		holds:     payments.NewHolds(cluster),
		chat:      chat.New(rdb),
		idem:      idem.New(rdb, 24*time.Hour),
		defaults:  flags.NewRedisStore(cfg, "flag:"),
		overrides: flags.NewOverrides(rdb, *env),
		rdb:       rdb,
	}

	srv := &http.Server{Addr: *listen, Handler: a.routes(), ReadHeaderTimeout: 5 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("fleetd listening on %s", *listen)
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func (a *app) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /drivers/{id}/online", func(w http.ResponseWriter, r *http.Request) {
		id := keys.DriverID(r.PathValue("id"))
		reply(w, nil, a.drivers.GoOnlineV2(r.Context(), id, r.FormValue("loc")))
	})
	mux.HandleFunc("GET /drivers/{id}", func(w http.ResponseWriter, r *http.Request) {
		snap, err := a.drivers.SnapshotV2(r.Context(), keys.DriverID(r.PathValue("id")))
		reply(w, snap, err)
	})
	mux.HandleFunc("POST /trips", func(w http.ResponseWriter, r *http.Request) {
		var t trips.Trip
		if err := json.NewDecoder(r.Body).Decode(&t); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		k := idem.Key{Scope: "trips", Value: r.Header.Get("Idempotency-Key")}
		if k.Value != "" {
			st, resp, err := a.idem.ReserveV2(r.Context(), k, r.RemoteAddr)
			if err != nil || st != 0 {
				reply(w, resp, err)
				return
			}
		}
		if err := a.trips.StartV2(r.Context(), t); err != nil {
			reply(w, nil, err)
			return
		}
		if err := a.holds.PlaceV2(t.Rider, t.ID, 2500); err != nil {
			reply(w, nil, err)
			return
		}
		if err := dispatch.NewCellQueue(a.rdb, t.Cell).Push(r.Context(), t.ID); err != nil {
			reply(w, nil, err)
			return
		}
		_ = a.surge.BumpV2(r.Context(), t.Cell)
		if k.Value != "" {
			_ = a.idem.CompleteV2(r.Context(), k, strconv.FormatInt(int64(t.ID), 10))
		}
		reply(w, t, nil)
	})
	mux.HandleFunc("POST /trips/{id}/complete", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		fare, _ := strconv.ParseInt(r.FormValue("fare"), 10, 64)
		t := trips.Trip{ID: keys.TripID(id), Driver: keys.DriverID(r.FormValue("driver"))}
		if err := a.trips.CompleteV2(r.Context(), t, fare); err != nil {
			reply(w, nil, err)
			return
		}
		_, err := a.holds.SettleV2(t.ID)
		reply(w, nil, err)
	})
	mux.HandleFunc("GET /cells/{cell}/surge", func(w http.ResponseWriter, r *http.Request) {
		m, err := a.surge.MultiplierV2(r.Context(), keys.CellID(r.PathValue("cell")))
		reply(w, m, err)
	})
	mux.HandleFunc("GET /cells/{cell}/drivers", func(w http.ResponseWriter, r *http.Request) {
		ids, err := a.geo.NearbyV2(r.Context(), keys.CellID(r.PathValue("cell")))
		reply(w, ids, err)
	})
	mux.HandleFunc("GET /flags", func(w http.ResponseWriter, r *http.Request) {
		vals, err := a.defaults.Get(r.Context(), r.URL.Query()["name"]...)
		reply(w, vals, err)
	})
	return mux
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
