// Command dine is the food delivery API.
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

func main() {
	var (
		listen      = flag.String("listen", ":8080", "HTTP address")
		clusterList = flag.String("redis", "10.0.1.10:6379,10.0.1.11:6379,10.0.1.12:6379", "Redis Cluster seed nodes")
		reportsAddr = flag.String("reports", "10.0.2.10:6379", "reporting server (single node)")
		heatAddr    = flag.String("heatmap", "10.0.2.11:6379", "heatmap server (single node)")
	)
	flag.Parse()
	addrs := strings.Split(*clusterList, ",")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// go-redis: the catalog takes a UniversalClient, orders a ClusterClient.
	universal := goredis.NewUniversalClient(&goredis.UniversalOptions{
		Addrs:        addrs,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	defer universal.Close()
	reports := goredis.NewClient(&goredis.Options{Addr: *reportsAddr})
	defer reports.Close()
	clusterRDB := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, RouteByLatency: true})
	defer clusterRDB.Close()

	// rueidis: carts use it directly, promotions through the adapter.
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()

	// redigo + redisc for dispatch, a plain pool for the heatmap server.
	rcluster := &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     8,
				IdleTimeout: time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := rcluster.Refresh(); err != nil {
		log.Fatal(err)
	}
	defer rcluster.Close()
	heat := &redis.Pool{MaxIdle: 2, Dial: func() (redis.Conn, error) { return redis.Dial("tcp", *heatAddr) }}
	defer heat.Close()

	// GLIDE for ratings.
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
	defer gc.Close()

	var stale []string
	if v := os.Getenv("DINE_STALE_PROMO_KEYS"); v != "" {
		stale = strings.Split(v, ",")
	}

	cat := catalog.New(universal, catalog.Options{MenuTTL: 12 * time.Hour, Reports: reports})
	carts := cart.New(rc, 72*time.Hour)
	ord := orders.NewRepo(clusterRDB, orders.Config{ReceiptPrefix: "dine:"})
	disp := dispatch.New(rcluster, heat)
	promos := promo.New(rueidiscompat.NewAdapter(rc), promo.WithStaleKeys(stale))
	board := ratings.New(gc)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /restaurants/{id}/menu/dishes", func(w http.ResponseWriter, r *http.Request) {
		ds, err := cat.DishesByName(r.Context(), keys.RestaurantID(r.PathValue("id")))
		reply(w, ds, err)
	})
	mux.HandleFunc("POST /carts/{user}/lines", func(w http.ResponseWriter, r *http.Request) {
		var l cart.Line
		if err := json.NewDecoder(r.Body).Decode(&l); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(w, nil, carts.Add(r.Context(), keys.UserID(r.PathValue("user")), l))
	})
	mux.HandleFunc("POST /orders", func(w http.ResponseWriter, r *http.Request) {
		var o orders.Order
		if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		o.PlacedAt = time.Now()
		reply(w, o.ID, ord.Place(r.Context(), o))
	})
	mux.HandleFunc("POST /zones/{zone}/assign/{courier}", func(w http.ResponseWriter, r *http.Request) {
		ok, err := disp.AssignTagged(keys.ZoneID(r.PathValue("zone")), keys.CourierID(r.PathValue("courier")))
		reply(w, ok, err)
	})
	mux.HandleFunc("POST /coupons/{code}/redeem/{user}", func(w http.ResponseWriter, r *http.Request) {
		reply(w, nil, promos.Redeem(r.Context(), keys.CouponCode(r.PathValue("code")), keys.UserID(r.PathValue("user"))))
	})
	mux.HandleFunc("POST /restaurants/{id}/ratings/{stars}", func(w http.ResponseWriter, r *http.Request) {
		stars, _ := strconv.ParseInt(r.PathValue("stars"), 10, 64)
		reply(w, nil, board.Rate(r.Context(), keys.RestaurantID(r.PathValue("id")), stars))
	})

	srv := &http.Server{Addr: *listen, Handler: mux}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	log.Printf("dine listening on %s", *listen)
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
