// Command learnd runs the learning platform's API against Redis Cluster.
package main

import (
	"context"
	"flag"
	"log"
	"net"
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

	"example.com/learn/internal/catalog"
	"example.com/learn/internal/certs"
	"example.com/learn/internal/leaderboard"
	"example.com/learn/internal/payouts"
	"example.com/learn/internal/progress"
	"example.com/learn/internal/quiz"
)

// services is everything the HTTP handlers use.
type services struct {
	Catalog  *catalog.Store
	Progress *progress.Tracker
	Quiz     *quiz.Service
	Certs    *certs.Registry
	Board    *leaderboard.Board
	Payouts  *payouts.Ledger

	closers []func()
}

func (s *services) Close() {
	for _, c := range s.closers {
		c()
	}
}

func wire(addrs []string) (*services, error) {
	s := &services{}

	// Catalog: go-redis cluster client.
	cat := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, ReadTimeout: 2 * time.Second})
	s.closers = append(s.closers, func() { cat.Close() })
	s.Catalog = catalog.New(cat, catalog.Options{Namespace: "lrn", EnrollTTL: 90 * 24 * time.Hour})

	// Payouts: a UniversalClient; with several addresses it is a cluster client.
	pay := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: addrs})
	s.closers = append(s.closers, func() { pay.Close() })
	s.Payouts = payouts.NewLedger(pay, payouts.Config{Namespace: "pay", LegacyDB: 3})

	// Progress and quizzes: rueidis, the quiz team through the go-redis adapter.
	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, rc.Close)
	s.Progress = progress.NewTracker(rc, "prg:")
	s.Quiz = quiz.NewService(rueidiscompat.NewAdapter(rc), quiz.KeyScheme{Prefix: "qz:"})

	// Certificates: redigo through redisc.
	cluster := &redisc.Cluster{
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
	if err := cluster.Refresh(); err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() { cluster.Close() })
	s.Certs = certs.NewRegistry(cluster, "crt")

	// Leaderboards: Valkey GLIDE cluster client.
	cfg := config.NewClusterClientConfiguration()
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return nil, err
		}
		p, _ := strconv.Atoi(port)
		cfg = cfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	g, err := glide.NewClusterClient(cfg)
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, g.Close)
	s.Board = leaderboard.NewBoard(g, "lb")
	return s, nil
}

func main() {
	addrList := flag.String("redis", envOr("REDIS_CLUSTER", "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003"), "cluster seed addresses")
	listen := flag.String("listen", ":8080", "HTTP address")
	flag.Parse()

	svc, err := wire(strings.Split(*addrList, ","))
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	srv := &http.Server{Addr: *listen, Handler: routes(svc)}
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
