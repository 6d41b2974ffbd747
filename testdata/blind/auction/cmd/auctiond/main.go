// Command auctiond is the auction house backend.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	zrredis "github.com/zeromicro/go-zero/core/stores/redis"

	"example.com/auction/internal/admin"
	"example.com/auction/internal/bids"
	"example.com/auction/internal/catalogue"
	"example.com/auction/internal/fraud"
	"example.com/auction/internal/hot"
	"example.com/auction/internal/keys"
	"example.com/auction/internal/lots"
	"example.com/auction/internal/notify"
	"example.com/auction/internal/payouts"
	"example.com/auction/internal/search"
	"example.com/auction/internal/sessions"
	"example.com/auction/internal/timers"
	"example.com/auction/internal/watch"
)

type config struct {
	ClusterAddrs []string
	CacheAddrs   map[string]string
	Listen       string
}

// Scripts preloaded on start so the first EVALSHA after a deploy hits.
var preloadScripts = []string{
	`return redis.call('GET', KEYS[1])`,
	`return redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')`,
}

type app struct {
	cluster *goredis.ClusterClient
	rc      rueidis.Client
	rcl     *redisc.Cluster

	lots     *lots.Store
	sniper   *timers.Sniper
	clock    *timers.Clock
	queues   *timers.Queues
	feed     *timers.Feed
	boards   *hot.Boards
	ops      *admin.Ops
	hub      *notify.Hub
	expiry   *notify.Expiry
	sessions *sessions.Store
	prefs    *sessions.Prefs
	cache    *catalogue.Cache
	live     *catalogue.Live
	book     *bids.Book
	tools    *bids.Tools
	alerts   *bids.Alerts
	watch    *watch.Lists
	limiter  *fraud.Limiter
	global   *fraud.Global
	quar     *fraud.Quarantine
	audit    *fraud.Audit
	ledger   *payouts.Ledger
	facets   *search.Facets
}

func wire(cfg config) (*app, error) {
	a := &app{}

	// Primary data: the three-master cluster.
	a.cluster = goredis.NewClusterClient(&goredis.ClusterOptions{
		Addrs:        cfg.ClusterAddrs,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
	})
	shared := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: cfg.ClusterAddrs})

	// Sessions keep their own logical database, as on the old server.
	sessionDB := goredis.NewUniversalClient(&goredis.UniversalOptions{
		Addrs: cfg.ClusterAddrs,
		DB:    4,
	})

	// Page cache tier: plain cache servers behind a Ring.
	ring := goredis.NewRing(&goredis.RingOptions{Addrs: cfg.CacheAddrs})

	rc, err := rueidis.NewClient(rueidis.ClientOption{
		InitAddress:      cfg.ClusterAddrs,
		ConnWriteTimeout: 2 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	a.rc = rc

	a.rcl = &redisc.Cluster{
		StartupNodes: cfg.ClusterAddrs,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(2 * time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     8,
				IdleTimeout: time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := a.rcl.Refresh(); err != nil {
		return nil, err
	}

	zr, err := zrredis.NewRedis(zrredis.RedisConf{
		Host: strings.Join(cfg.ClusterAddrs, ","),
		Type: zrredis.ClusterType,
	})
	if err != nil {
		return nil, err
	}

	a.lots = lots.NewStore(shared)
	a.sniper = timers.NewSniper(shared, 2*time.Minute)
	a.clock = timers.NewClock(a.cluster)
	a.queues = timers.NewQueues(shared)
	a.feed = timers.NewFeed(shared)
	a.boards = hot.NewBoards(a.cluster)
	a.ops = admin.New(a.cluster, preloadScripts...)
	a.hub = notify.NewHub(a.cluster)
	a.expiry = notify.NewExpiry(a.cluster)
	a.sessions = sessions.NewStore(sessionDB, 24*time.Hour)
	a.prefs = sessions.NewPrefs(shared)
	a.cache = catalogue.NewCache(ring, 10*time.Minute)
	a.live = catalogue.NewLive(rc, 5*time.Second)
	a.book = bids.NewBook(rc)
	a.tools = bids.NewTools(rc)
	a.alerts = bids.NewAlerts(rc)
	a.watch = watch.NewLists(a.rcl)
	a.limiter = fraud.NewLimiter(a.rcl, fraud.Limits{PerMinute: 30, PerHour: 600})
	// House-wide counters are global, they need no per-entity tag.
	a.global = fraud.NewGlobal(a.rcl, keys.RateSpace{Tag: ""}, fraud.Limits{PerMinute: 500, PerHour: 20000})
	a.quar = fraud.NewQuarantine(a.rcl, 2)
	a.audit = fraud.NewAudit(a.rcl)
	a.ledger = payouts.NewLedger(zr, 1250)
	a.facets = search.NewFacets(zr, keys.FacetIndex{Prefix: "auc{eu}:", Name: "lots"})
	return a, nil
}

func (a *app) close() {
	a.rc.Close()
	a.rcl.Close()
	a.cluster.Close()
}

func writeJSON(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (a *app) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /lots/{id}", func(w http.ResponseWriter, r *http.Request) {
		snap, err := a.lots.Snapshot(r.Context(), keys.LotID(r.PathValue("id")))
		writeJSON(w, snap, err)
	})
	mux.HandleFunc("POST /lots/{id}/bids", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Bidder string `json:"bidder"`
			Cents  int64  `json:"cents"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		id, b := keys.LotID(r.PathValue("id")), keys.BidderID(in.Bidder)
		if err := a.limiter.Allow(r.Context(), b); err != nil {
			http.Error(w, err.Error(), http.StatusTooManyRequests)
			return
		}
		err := a.book.Place(r.Context(), id, b, in.Cents)
		if err == nil {
			_, err = a.sniper.Extend(r.Context(), id, in.Cents, time.Now())
		}
		writeJSON(w, map[string]bool{"accepted": err == nil}, err)
	})
	mux.HandleFunc("GET /bidders/{id}/watchlist", func(w http.ResponseWriter, r *http.Request) {
		s, err := a.watch.Snapshot(r.Context(), keys.BidderID(r.PathValue("id")))
		writeJSON(w, s, err)
	})
	mux.HandleFunc("GET /sellers/{id}/balance", func(w http.ResponseWriter, r *http.Request) {
		b, err := a.ledger.Balances(r.Context(), keys.SellerID(r.PathValue("id")))
		writeJSON(w, b, err)
	})
	mux.HandleFunc("GET /ops/keys", func(w http.ResponseWriter, r *http.Request) {
		n, err := a.ops.KeyCount(r.Context())
		writeJSON(w, map[string]int64{"keys": n}, err)
	})
	return mux
}

func main() {
	clusterAddrs := flag.String("cluster", "10.0.1.11:6379,10.0.1.12:6379,10.0.1.13:6379", "cluster seed nodes")
	cacheAddrs := flag.String("cache", "cache-a=10.0.2.11:6379,cache-b=10.0.2.12:6379,cache-c=10.0.2.13:6379", "cache ring shards")
	listen := flag.String("listen", ":8080", "HTTP listen address")
	flag.Parse()

	cfg := config{ClusterAddrs: strings.Split(*clusterAddrs, ","), CacheAddrs: map[string]string{}, Listen: *listen}
	for _, kv := range strings.Split(*cacheAddrs, ",") {
		name, addr, ok := strings.Cut(kv, "=")
		if ok {
			cfg.CacheAddrs[name] = addr
		}
	}

	a, err := wire(cfg)
	if err != nil {
		log.Fatalf("wire: %v", err)
	}
	defer a.close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if _, err := a.ops.PreloadScripts(ctx); err != nil {
		log.Printf("preload scripts: %v", err)
	}
	expired := make(chan string, 128)
	if err := a.expiry.ListenAllShards(ctx, expired); err != nil {
		log.Printf("expiry listener: %v", err)
	}
	go func() {
		for k := range expired {
			log.Printf("clock expired: %s", k)
		}
	}()

	srv := &http.Server{Addr: cfg.Listen, Handler: a.routes(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("auctiond listening on %s", cfg.Listen)
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
