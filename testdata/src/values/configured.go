package values

import (
	"context"
	"os"

	goredis "github.com/redis/go-redis/v9"

	"values/conf"
)

var config = &conf.Global

// A key prefix read from configuration is where operators put the hash
// tag of a deployment on a cluster: keys that start with one are not
// reported for the value alone. A default that a struct tag gives is the
// value the code runs with, read as its text.
func configuredPrefixes(ctx context.Context, rdb *goredis.ClusterClient, gid string) {
	rdb.MGet(ctx, config.Store.RedisPrefix+"_g_"+gid, config.Store.RedisPrefix+"_b_"+gid) // the default "{a}": one slot
	rdb.MGet(ctx, config.Store.Namespace+":jobs", config.Store.Namespace+":done")         // configured: tagged on purpose
	env := os.Getenv("APP_PREFIX")
	rdb.MGet(ctx, env+":jobs", env+":done") // the environment: likewise

	rdb.MGet(ctx, config.Store.LockPrefix+"a", config.Store.LockPrefix+"b") // want `MGet keys "lock:a" \(slot \d+\) and "lock:b" \(slot \d+\) are on different hash slots`

	c := conf.Load()
	rdb.MGet(ctx, c.Store.Namespace+":jobs", c.Store.Namespace+":done")
	rdb.MGet(ctx, c.Store.Plain+":jobs", c.Store.Plain+":done")                       // want `MGet keys "<c.Store.Plain>:jobs" and "<c.Store.Plain>:done" are on different hash slots for every value of c.Store.Plain, unless c.Store.Plain holds a hash tag`
	rdb.MGet(ctx, "app:"+c.Store.Namespace+":jobs", "app:"+c.Store.Namespace+":done") // want `MGet keys "app:<c.Store.Namespace>:jobs" and "app:<c.Store.Namespace>:done" are on different hash slots for every value of c.Store.Namespace \(assuming c.Store.Namespace holds no brace\)`
}

// Keys a SCAN matches under a configured prefix, sent in one MGET.
func scannedUnderPrefix(ctx context.Context, rdb *goredis.ClusterClient) {
	keys, _, _ := rdb.Scan(ctx, 0, config.Store.RedisPrefix+"_g_*", 100).Result() // want `SCAN on a cluster client runs on one node`
	rdb.MGet(ctx, keys...)
	plain, _, _ := rdb.Scan(ctx, 0, config.Store.LockPrefix+"*", 100).Result() // want `SCAN on a cluster client runs on one node`
	rdb.MGet(ctx, plain...)                                                    // want `MGet keys "lock:<\*>"`
}
