// Command arena runs the game backend's Redis-backed services.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-go"

	"example.com/arena/internal/anticheat"
	"example.com/arena/internal/chat"
	"example.com/arena/internal/guild"
	"example.com/arena/internal/ids"
	"example.com/arena/internal/inventory"
	"example.com/arena/internal/leaderboard"
	"example.com/arena/internal/lobby"
	"example.com/arena/internal/matchmaking"
)

var regions = []string{"eu", "na", "asia"}

type services struct {
	matchmaker  *matchmaking.Matchmaker
	lobbies     *lobby.Service
	leaderboard *leaderboard.Store
	limiter     *anticheat.Limiter
	inventory   *inventory.Store
	guilds      *guild.Repo
	chat        *chat.Service
}

func (s services) routes(cluster *goredis.ClusterClient) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := cluster.Ping(r.Context()).Err(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /seasons/{season}/hall-of-fame", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("season"))
		if err != nil {
			http.Error(w, "bad season", http.StatusBadRequest)
			return
		}
		top, err := s.leaderboard.HallOfFameIDs(r.Context(), ids.Season(n))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(top)
	})
	mux.HandleFunc("GET /presence", func(w http.ResponseWriter, r *http.Request) {
		var friends []ids.PlayerID
		for _, p := range strings.Split(r.URL.Query().Get("players"), ",") {
			if p != "" {
				friends = append(friends, ids.PlayerID(p))
			}
		}
		st, err := s.chat.Presence(r.Context(), friends)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(st)
	})
	return mux
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func main() {
	nodes := strings.Split(env("ARENA_REDIS_NODES", "redis-0:6379,redis-1:6379,redis-2:6379"), ",")

	// go-redis: the cluster client for the hot paths, the universal client
	// for the services that still run against a single server in dev.
	cluster := goredis.NewClusterClient(&goredis.ClusterOptions{
		Addrs:        nodes,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	defer cluster.Close()
	universal := goredis.NewUniversalClient(&goredis.UniversalOptions{
		Addrs:         nodes,
		IsClusterMode: true,
	})
	defer universal.Close()

	// valkey-go for inventories and wallets.
	vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: nodes})
	if err != nil {
		log.Fatalf("valkey: %v", err)
	}
	defer vk.Close()

	// redigo + redisc for guilds.
	rc := &redisc.Cluster{
		StartupNodes: nodes,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     10,
				IdleTimeout: time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := rc.Refresh(); err != nil {
		log.Fatalf("redisc: %v", err)
	}
	defer rc.Close()

	// GLIDE for chat and presence.
	gcfg := config.NewClusterClientConfiguration().WithRequestTimeout(time.Second)
	for _, n := range nodes {
		host, port, _ := net.SplitHostPort(n)
		p, _ := strconv.Atoi(port)
		gcfg = gcfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	gc, err := glide.NewClusterClient(gcfg)
	if err != nil {
		log.Fatalf("glide: %v", err)
	}
	defer gc.Close()

	svc := services{
		matchmaker:  matchmaking.New(cluster, "mm"),
		lobbies:     lobby.NewService(universal, lobby.Options{Prefix: "arena", TTL: 2 * time.Hour}),
		leaderboard: leaderboard.NewStore(universal, regions...),
		limiter: anticheat.NewLimiter(cluster, anticheat.Config{
			Window:     10 * time.Second,
			MaxActions: 30,
			MaxStrikes: 3,
			BanList:    "ac:banned",
		}),
		inventory: inventory.New(vk),
		guilds:    guild.NewRepo(rc),
		chat:      chat.NewService(gc, regions),
	}

	srv := &http.Server{Addr: env("ARENA_LISTEN", ":8080"), Handler: svc.routes(cluster)}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
}
