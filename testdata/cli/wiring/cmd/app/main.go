// Command app wires the service to a client of several seeds (a cluster,
// or one server) and the cache to a standalone server, turns the tiers'
// tagged keys on and leaves the queue's options at their defaults, and
// gives the rewards a prefix without a tag and the flags one that is a tag,
// tags the names but not the labels, and gives the quotas a tagged prefix
// through their setter but not the usage counters, and gives the boards'
// configuration a prefix without a tag and the tagged boards' a tag, and
// gives the ranks a prefix without a tag and the tagged ranks a tag, and
// gives the heatmap a redigo pool that dials one server and its remote one
// that redisc dials, and gives the quarantine database 2, the archive's
// options database 3, and the parking lot 0 or a number it reads; and
// gives the redisc nodes' dial options database 4 and the spares' none,
// the sessions' universal client database 5 and the preferences' a number
// it reads, and a one-server dial database 6, the go-redis reports 8, the
// session store's configuration 7 and the one-seed session client 9.
package main

import (
	"context"
	"os"
	"strings"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"

	"example.com/cli/wiring/internal/boards"
	"example.com/cli/wiring/internal/databases"
	"example.com/cli/wiring/internal/defranks"
	"example.com/cli/wiring/internal/flagstore"
	"example.com/cli/wiring/internal/heatmap"
	"example.com/cli/wiring/internal/localcache"
	"example.com/cli/wiring/internal/names"
	"example.com/cli/wiring/internal/optranks"
	"example.com/cli/wiring/internal/prefranks"
	"example.com/cli/wiring/internal/queue"
	"example.com/cli/wiring/internal/ranks"
	"example.com/cli/wiring/internal/rewards"
	"example.com/cli/wiring/internal/service"
	"example.com/cli/wiring/internal/tagboards"
	"example.com/cli/wiring/internal/tagranks"
	"example.com/cli/wiring/internal/tiers"
	"example.com/cli/wiring/lib"
)

func main() {
	ctx := context.Background()
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: strings.Split(os.Getenv("REDIS_SEEDS"), ",")})
	svc := service.New(rdb)
	_ = svc.Profiles.Pair(ctx)
	cache := localcache.New(redis.NewClient(&redis.Options{Addr: os.Getenv("CACHE_ADDR")}))
	_ = cache.Put(ctx, "q", "v")
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(os.Getenv("REDIS_SEEDS"), ",")})
	t := tiers.New(cc)
	t.TaggedKeys = true // the tier keys were migrated
	_ = t.SetTier(ctx, "m1", "gold")
	_ = queue.New(cc, queue.Options{}).Sizes(ctx, "mail")
	_ = rewards.New(cc, "rw").Stock(ctx, "r1")
	_ = flagstore.New(cc, "{flags}:").Get(ctx, "a", "b")
	ns := names.New(cc)
	ns.UseTag()
	_ = ns.Pair(ctx)
	_ = names.NewLabels(cc).Pair(ctx)
	q := names.NewQuota(cc)
	q.SetPrefix("{quota}:")
	_ = q.Of(ctx, "c1")
	_ = names.NewUsage(cc).Of(ctx, "c1")
	_ = boards.New(cc, boards.Config{KeyPrefix: "bd"}).Global(ctx, []string{os.Getenv("CAT")})
	_ = tagboards.New(cc, tagboards.Config{KeyPrefix: "{tb}"}).Global(ctx, []string{os.Getenv("CAT")})
	_ = tagboards.New(cc, tagboards.Config{KeyPrefix: os.Getenv("PREFIX")}).Global(ctx, nil)
	_ = ranks.New(cc, "rk").Top(ctx)
	_ = tagranks.New(cc, "{tr}").Top(ctx)
	_ = optranks.New(cc, optranks.Options{Prefix: "ro"}).Top(ctx)
	_ = defranks.New(cc, defranks.Options{Prefix: "rd"}).Top(ctx)
	_ = prefranks.New(cc, prefranks.Options{Prefix: "rp"}).Top(ctx)
	rc := &redisc.Cluster{StartupNodes: strings.Split(os.Getenv("REDIS_SEEDS"), ",")}
	heat := &redigo.Pool{Dial: func() (redigo.Conn, error) { return redigo.Dial("tcp", os.Getenv("HEAT_ADDR")) }}
	hm := heatmap.New(rc, heat)
	_, _ = hm.Cells()
	_, _ = hm.Zones()
	_, _ = heatmap.NewRemote(&redigo.Pool{Dial: rc.Dial}).Cells()
	_ = lib.New(redis.NewClient(&redis.Options{Addr: os.Getenv("CACHE_ADDR")})).Pair(ctx)
	_ = databases.NewQuarantine(rc, 2).Add("a1")
	_ = databases.NewArchive(cc, databases.Options{DB: 3}).Keep(ctx, "r1")
	_ = databases.NewLot(rc, 0).Park()
	_ = databases.NewLot(rc, len(os.Getenv("LOT_DB"))).Park()
	seeds := strings.Split(os.Getenv("REDIS_SEEDS"), ",")
	_ = databases.NewNodes(databases.DialConfig{Seeds: seeds, DB: 4}).Refresh()
	_ = databases.NewSpare(databases.DialConfig{Seeds: seeds}).Refresh()
	_ = databases.NewSessions(seeds, 5)
	_ = databases.NewPrefs(seeds, len(os.Getenv("PREFS_DB")))
	_, _ = databases.NewLocal(os.Getenv("LOCAL_ADDR"), 6)
	_ = databases.NewReports(cc, 8).Use(ctx)
	_ = databases.NewSessionStore(databases.SessionConfig{Seeds: seeds, DB: 7})
	_ = databases.NewOneSession(os.Getenv("ONE_SEED"), 9)
}
