// Command tixd is the ticketing API.
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

type server struct {
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

func main() {
	var (
		listen    = flag.String("listen", ":8080", "HTTP address")
		clusterFl = flag.String("redis-cluster", envOr("TIX_REDIS_CLUSTER", "127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002"), "cluster seed nodes")
		cacheAddr = flag.String("search-cache", envOr("TIX_SEARCH_CACHE", "127.0.0.1:6379"), "standalone search cache")
	)
	flag.Parse()
	addrs := strings.Split(*clusterFl, ",")

	// Main cluster client: catalog, holds, orders.
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:        addrs,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	// Sessions, feeds and rate limits go through a universal client so that
	// local development can point them at one server.
	uni := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, PoolSize: 50})
	// The search cache is a standalone Redis beside the search service.
	cache := redis.NewClient(&redis.Options{Addr: *cacheAddr, DB: 2})

	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		log.Fatal(err)
	}
	pc := &redisc.Cluster{
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
	if err := pc.Refresh(); err != nil {
		log.Fatal(err)
	}

	s := &server{
		catalog:  catalog.New(rdb),
		holds:    seats.New(rdb, 10*time.Minute),
		orders:   orders.New(rdb, 30*time.Minute),
		sessions: sessions.New(uni, sessions.Options{Prefix: "tix:", TTL: 12 * time.Hour}),
		waitlist: waitlist.New(rc),
		promos:   promo.New(pc),
		feeds:    feed.New(uni, 500),
		limiter:  ratelimit.New(uni, ratelimit.Config{Limit: 20, Burst: 10, Window: time.Minute}),
		search:   searchcache.New(cache, 5*time.Minute),
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /events/{id}", s.getEvent)
	mux.HandleFunc("POST /events/{id}/holds", s.postHold)
	mux.HandleFunc("POST /checkout", s.postCheckout)
	mux.HandleFunc("POST /waitlist/{id}", s.postWaitlist)

	srv := &http.Server{Addr: *listen, Handler: s.auth(mux)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("tixd listening on %s", *listen)
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
	rdb.Close()
	uni.Close()
	cache.Close()
	rc.Close()
	pc.Close()
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

type ctxUser struct{}

func (s *server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := sessions.Token(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		users, err := s.sessions.Who(r.Context(), tok)
		if err != nil || users[0] == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		u := keyspace.UserID(users[0])
		if ok, err := s.limiter.AllowV2(r.Context(), u, r.Pattern); err == nil && !ok {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxUser{}, u)))
	})
}

func pathEvent(r *http.Request) (keyspace.EventID, bool) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return keyspace.EventID(n), err == nil
}

func (s *server) getEvent(w http.ResponseWriter, r *http.Request) {
	id, ok := pathEvent(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	snap, err := s.catalog.SnapshotV2(r.Context(), id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_ = json.NewEncoder(w).Encode(snap)
}

func (s *server) postHold(w http.ResponseWriter, r *http.Request) {
	id, ok := pathEvent(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	var body struct {
		Seats []keyspace.SeatID `json:"seats"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	u := r.Context().Value(ctxUser{}).(keyspace.UserID)
	if err := s.holds.Hold(r.Context(), id, u, body.Seats...); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (s *server) postCheckout(w http.ResponseWriter, r *http.Request) {
	u := r.Context().Value(ctxUser{}).(keyspace.UserID)
	id := keyspace.OrderID(time.Now().UnixNano())
	o, err := s.orders.CheckoutV2(r.Context(), u, id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	_ = json.NewEncoder(w).Encode(o)
}

func (s *server) postWaitlist(w http.ResponseWriter, r *http.Request) {
	id, ok := pathEvent(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	u := r.Context().Value(ctxUser{}).(keyspace.UserID)
	if err := s.waitlist.JoinCounted(r.Context(), id, u); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
