// Command loyaltyd is the loyalty-points API: ledger, tiers, rewards,
// partners, campaigns, fraud holds and leaderboards.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"

	"example.com/loyalty/internal/boards"
	"example.com/loyalty/internal/campaigns"
	"example.com/loyalty/internal/expiry"
	"example.com/loyalty/internal/fraud"
	"example.com/loyalty/internal/keys"
	"example.com/loyalty/internal/ledger"
	"example.com/loyalty/internal/partners"
	"example.com/loyalty/internal/profile"
	"example.com/loyalty/internal/rewards"
	"example.com/loyalty/internal/tiers"
)

// LedgerPrefix is the ledger's key prefix; the finance scripts hard-code it.
const LedgerPrefix = "lp"

// RewardsPrefix is the catalog's key prefix.
const RewardsPrefix = "rw"

func main() {
	var (
		clusterAddrs = flag.String("cluster", "127.0.0.1:31001,127.0.0.1:31002,127.0.0.1:31003", "Redis Cluster seed addresses")
		cacheAddr    = flag.String("profile-cache", "127.0.0.1:31010", "profile cache (a plain Redis server)")
		listen       = flag.String("listen", ":8080", "HTTP listen address")
		worker       = flag.String("worker", hostname(), "expiry worker name")
	)
	flag.Parse()
	addrs := strings.Split(*clusterAddrs, ",")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Ledger and expiry job: go-redis, through UniversalClient so that the
	// local docker-compose (one server) works too.
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:        addrs,
		ReadTimeout:  500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond,
	})
	defer rdb.Close()
	ks := keys.Keyspace{Prefix: LedgerPrefix}
	led := ledger.New(rdb, ks, ledger.Options{PointsTTL: 365 * 24 * time.Hour})
	sweeper := expiry.New(rdb, ks, "sweeper", *worker)

	// Tiers: the tier team talks to the cluster directly.
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer cc.Close()
	tierSvc := tiers.New(cc, tiers.Thresholds{
		{Points: 5_000, Tier: tiers.Silver},
		{Points: 20_000, Tier: tiers.Gold},
		{Points: 75_000, Tier: tiers.Platinum},
	})
	tierSvc.TaggedKeys = true // the tier key migration ran in March

	// Profile cache: one plain server.
	cache := profile.NewCache(redis.NewClient(&redis.Options{Addr: *cacheAddr}), 10*time.Minute)

	// Rewards, partners and campaigns: valkey-go, the last two through the
	// go-redis-compatible adapter.
	vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: addrs})
	if err != nil {
		log.Fatalf("valkey: %v", err)
	}
	defer vk.Close()
	catalog := rewards.NewCatalog(vk, RewardsPrefix, ks)
	compat := valkeycompat.NewAdapter(vk)
	partnerReg := partners.NewRegistry(compat)
	engine := campaigns.NewEngine(compat)

	// Fraud and leaderboards: Valkey GLIDE.
	gcfg := config.NewClusterClientConfiguration().WithRequestTimeout(time.Second).WithClientName("loyaltyd")
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			log.Fatalf("cluster address %q: %v", a, err)
		}
		p, _ := strconv.Atoi(port)
		gcfg = gcfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	g, err := glide.NewClusterClient(gcfg)
	if err != nil {
		log.Fatalf("glide: %v", err)
	}
	defer g.Close()
	holds := fraud.New(g, 72*time.Hour)
	lb := boards.New(g, 100)

	go func() {
		t := time.NewTicker(time.Hour)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for {
					m, err := sweeper.ClaimTagged(ctx)
					if err != nil {
						break
					}
					if _, err := sweeper.ExpireMember(ctx, m, time.Now()); err != nil {
						log.Printf("expire %s: %v", m, err)
					}
				}
			}
		}
	}()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /members/{id}/summary", func(w http.ResponseWriter, r *http.Request) {
		m := keys.MemberID(r.PathValue("id"))
		s, err := led.Summary(r.Context(), m)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		held, err := holds.Held(r.Context(), m)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		profiles, _ := cache.GetMany(r.Context(), []keys.MemberID{m})
		writeJSON(w, map[string]any{"summary": s, "held": held[0], "profile": profiles[m]})
	})
	mux.HandleFunc("POST /members/{id}/accruals", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Order  keys.OrderID `json:"order"`
			Store  keys.StoreID `json:"store"`
			Points int64        `json:"points"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		m := keys.MemberID(r.PathValue("id"))
		if err := led.Accrue(r.Context(), m, req.Order, req.Points); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		_ = partnerReg.RecordVisit(r.Context(), req.Store, m, req.Points)
		_, _ = holds.CheckVelocity(r.Context(), m, time.Hour, 20, time.Now())
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /members/{id}/redemptions/{reward}", func(w http.ResponseWriter, r *http.Request) {
		m := keys.MemberID(r.PathValue("id"))
		left, err := catalog.Reserve(r.Context(), keys.RewardID(r.PathValue("reward")), m, time.Now().Add(15*time.Minute).Unix())
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		writeJSON(w, map[string]int64{"left": left})
	})
	mux.HandleFunc("GET /members/{id}/tier", func(w http.ResponseWriter, r *http.Request) {
		t, err := tierSvc.RecomputeTagged(r.Context(), ks, keys.MemberID(r.PathValue("id")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		writeJSON(w, map[string]tiers.Tier{"tier": t})
	})
	mux.HandleFunc("GET /campaigns/{id}", func(w http.ResponseWriter, r *http.Request) {
		active, mult, err := engine.Settings(r.Context(), keys.CampaignID(r.PathValue("id")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		writeJSON(w, map[string]any{"active": active, "multiplier": mult})
	})
	mux.HandleFunc("GET /boards/{id}/top", func(w http.ResponseWriter, r *http.Request) {
		n, err := lb.RefreshTop(r.Context(), boards.Board(r.PathValue("id")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		writeJSON(w, map[string]int64{"entries": n})
	})

	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("loyaltyd listening on %s", *listen)
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "worker"
	}
	return h
}
