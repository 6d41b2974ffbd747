// Package redis70 pins the sortpattern and onenode checks under -crossslot.target=redis:7.0: the same calls in every
// package of testdata/src/targets, each reported by the rules of its target.
package redis70

import (
	"context"

	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

func sorts(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, key, pattern string) {
	conn := cluster.Get()
	defer conn.Close()
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "weight_*"})                      // want `SORT BY "weight_\*" reads keys by a pattern, which Redis 7.0 refuses in cluster mode whatever the pattern \(ERR BY option of SORT denied in Cluster mode.\); sort in the client, keep the values in the sorted key, or move to Redis 7.4 or Valkey 8.0 and begin the pattern with the sorted key.s hash tag$`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "{ids}:w_*"})                   // want `SORT BY "{ids}:w_\*" reads keys by a pattern, which Redis 7.0 refuses`
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "{ids}w_*"})                      // want `SORT BY "{ids}w_\*" reads keys by a pattern`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "{other}:w_*"})                 // want `SORT BY "{other}:w_\*" reads keys by a pattern`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "w_*{ids}"})                    // want `SORT BY "w_\*{ids}" reads keys by a pattern`
	rdb.Sort(ctx, "ids", &goredis.Sort{Get: []string{"#"}})                  // want `SORT GET "#" reads keys by a pattern, which Redis 7.0 refuses in cluster mode whatever the pattern \(ERR GET option of SORT denied in Cluster mode.\)`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{Get: []string{"{ids}:o_*", "o_*"}}) // want `SORT GET "{ids}:o_\*" reads keys by a pattern`
	rdb.Sort(ctx, key, &goredis.Sort{By: "{ids}:w_*"})                       // want `SORT BY "{ids}:w_\*" reads keys by a pattern`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: pattern})
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: pattern + ":w_*"})     // want `SORT BY pattern reads keys by a pattern, which Redis 7.0 refuses in cluster mode whatever the pattern`
	c.Do(ctx, c.B().Sort().Key("{ids}").By(pattern+":w_*").Build()) // want `SORT BY pattern reads keys by a pattern, which Redis 7.0 refuses in cluster mode whatever the pattern`
	rdb.Do(ctx, "SORT", "{ids}", "BY", "{ids}:w_*", "GET", "#")     // want `SORT BY "{ids}:w_\*" reads keys by a pattern`
	rdb.Do(ctx, "SORT_RO", "{ids}", "BY", "{other}w_*")             // want `SORT BY "{other}w_\*" reads keys by a pattern`
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "nosort"})
	conn.Do("SORT", "{ids}", "BY", "{ids}:w_*")                  // want `SORT BY "{ids}:w_\*" reads keys by a pattern`
	conn.Do("SORT", "ids", "BY", "w_*")                          // want `SORT BY "w_\*" reads keys by a pattern`
	c.Do(ctx, c.B().Sort().Key("{ids}").By("{ids}:w_*").Build()) // want `SORT BY "{ids}:w_\*" reads keys by a pattern`
	c.Do(ctx, c.B().Sort().Key("{ids}").By("{x}:w_*").Build())   // want `SORT BY "{x}:w_\*" reads keys by a pattern`
	rdb.Keys(ctx, "user:*")                                      // want `KEYS on a cluster client runs on one node and sees only the keys of that node.s slots; run it on each master with ForEachMaster$`
	rdb.Scan(ctx, 0, "user:*", 100)                              // want `SCAN on a cluster client runs on one node.*; run it on each master with ForEachMaster$`
	c.Do(ctx, c.B().Scan().Cursor(0).Build())                    // want `SCAN on a cluster client runs on one node.*; run it on each node of the client.s Nodes\(\)$`
}
