package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

// Keys that came from the server: any slot, unless the pattern fixes a tag.
func deleteByPattern(ctx context.Context, rdb goredis.UniversalClient, cluster *goredis.ClusterClient, user string) {
	keys, _ := rdb.Keys(ctx, "cache:*").Result() // want `KEYS on a cluster client runs on one node`
	rdb.Del(ctx, keys...)                        // want `Del keys "cache:<\*>" for two different keys that KEYS "cache:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; group the keys by slot \(slotcalc\.Slot\) and send one call per slot$`

	var cursor uint64
	for {
		batch, next, err := rdb.Scan(ctx, cursor, "sess:*:data", 100).Result() // want `SCAN on a cluster client runs on one node`
		if err != nil {
			return
		}
		rdb.Unlink(ctx, batch...) // want `Unlink keys "sess:<\*:data>" for two different keys that SCAN "sess:<\*:data>" returns`
		if cursor = next; cursor == 0 {
			break
		}
	}

	tagged, _ := rdb.Keys(ctx, "cart:{"+user+"}:*").Result() // want `KEYS on a cluster client runs on one node`
	rdb.Del(ctx, tagged...)                                  // one tag: silent
	each := rdb.Keys(ctx, "cache:*").Val()                   // want `KEYS on a cluster client runs on one node`
	for _, k := range each {
		rdb.Del(ctx, k) // one key at a time: silent
	}
	rdb.MGet(ctx, rdb.Keys(ctx, "cache:*").Val()...) // want `KEYS on a cluster client runs on one node` `MGet keys "cache:<\*>" for two different keys that KEYS`

	all := cluster.Keys(ctx, "cache:*").Val() // want `KEYS on a cluster client runs on one node`
	cluster.Del(ctx, all...)                  // want `Del keys "cache:<\*>" for two different keys that KEYS`
}
