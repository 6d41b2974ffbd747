//go:build verify

package main

import (
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

// The same wiring as cmd/auctiond, pointed at the local test servers.

var (
	clusterAddrs = []string{"127.0.0.1:31001", "127.0.0.1:31002", "127.0.0.1:31003"}
	cacheAddrs   = map[string]string{"cache-a": "127.0.0.1:31010", "cache-b": "127.0.0.1:31011", "cache-c": "127.0.0.1:31012"}
)

var preloadScripts = []string{
	`return redis.call('GET', KEYS[1])`,
	`return redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')`,
}

type env struct {
	cluster *goredis.ClusterClient
	ring    *goredis.Ring
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

	// go-zero stores are rebuilt per case so one case's errors cannot
	// open the circuit breaker for the next one.
	ledger func() *payouts.Ledger
	facets func() *search.Facets
}

func wire() (*env, error) {
	e := &env{}
	e.cluster = goredis.NewClusterClient(&goredis.ClusterOptions{
		Addrs:        clusterAddrs,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
	})
	shared := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: clusterAddrs})
	sessionDB := goredis.NewUniversalClient(&goredis.UniversalOptions{
		Addrs: clusterAddrs,
		DB:    4,
	})
	e.ring = goredis.NewRing(&goredis.RingOptions{Addrs: cacheAddrs})

	rc, err := rueidis.NewClient(rueidis.ClientOption{
		InitAddress:      clusterAddrs,
		ConnWriteTimeout: 2 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	e.rc = rc

	e.rcl = &redisc.Cluster{
		StartupNodes: clusterAddrs,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(2 * time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     8,
				IdleTimeout: time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := e.rcl.Refresh(); err != nil {
		return nil, err
	}

	newZero := func() *zrredis.Redis {
		return zrredis.MustNewRedis(zrredis.RedisConf{
			Host: strings.Join(clusterAddrs, ","),
			Type: zrredis.ClusterType,
		})
	}

	e.lots = lots.NewStore(shared)
	e.sniper = timers.NewSniper(shared, 2*time.Minute)
	e.clock = timers.NewClock(e.cluster)
	e.queues = timers.NewQueues(shared)
	e.feed = timers.NewFeed(shared)
	e.boards = hot.NewBoards(e.cluster)
	e.ops = admin.New(e.cluster, preloadScripts...)
	e.hub = notify.NewHub(e.cluster)
	e.expiry = notify.NewExpiry(e.cluster)
	e.sessions = sessions.NewStore(sessionDB, 24*time.Hour)
	e.prefs = sessions.NewPrefs(shared)
	e.cache = catalogue.NewCache(e.ring, 10*time.Minute)
	e.live = catalogue.NewLive(rc, 5*time.Second)
	e.book = bids.NewBook(rc)
	e.tools = bids.NewTools(rc)
	e.alerts = bids.NewAlerts(rc)
	e.watch = watch.NewLists(e.rcl)
	e.limiter = fraud.NewLimiter(e.rcl, fraud.Limits{PerMinute: 30, PerHour: 600})
	e.global = fraud.NewGlobal(e.rcl, keys.RateSpace{Tag: ""}, fraud.Limits{PerMinute: 500, PerHour: 20000})
	e.quar = fraud.NewQuarantine(e.rcl, 2)
	e.audit = fraud.NewAudit(e.rcl)
	e.ledger = func() *payouts.Ledger { return payouts.NewLedger(newZero(), 1250) }
	e.facets = func() *search.Facets {
		return search.NewFacets(newZero(), keys.FacetIndex{Prefix: "auc{eu}:", Name: "lots"})
	}
	return e, nil
}
