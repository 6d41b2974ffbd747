// Package oneserver pins clients that talk to one server by construction,
// though their type could hold a cluster client, each beside a twin that
// may be a cluster client and is reported.
package oneserver

import (
	"context"
	"os"
	"strings"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// NewUniversalClient makes a *redis.Client for one address (or none) and
// no cluster mode, and a Sentinel client for a MasterName.
func universal() {
	one := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:6379"}})
	one.FlushAll(ctx)
	one.MGet(ctx, "a", "b")

	none := redis.NewUniversalClient(&redis.UniversalOptions{DB: 0})
	none.Keys(ctx, "session:*")

	sentinel := redis.NewUniversalClient(&redis.UniversalOptions{MasterName: "mymaster", Addrs: []string{"s1:26379", "s2:26379"}})
	sentinel.FlushDB(ctx)

	notCluster := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:6379"}, IsClusterMode: false})
	notCluster.Del(ctx, "a", "b")
}

func universalTwins(addrs []string, cluster bool) {
	two := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}})
	two.FlushAll(ctx)       // want `FLUSHALL on a cluster client runs on one node`
	two.MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`

	flagged := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:6379"}, IsClusterMode: true})
	flagged.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`

	fromFlag := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:6379"}, IsClusterMode: cluster})
	fromFlag.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`

	configured := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: strings.Split(os.Getenv("REDIS_ADDRS"), ",")})
	configured.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`

	given := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
	given.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}
