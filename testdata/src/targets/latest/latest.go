// Package latest pins the sortpattern and onenode checks under -crossslot.target=latest: the same calls in every
// package of testdata/src/targets, each reported by the rules of its target.
package latest

import (
	"context"
	"strconv"

	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

func sorts(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, key, pattern string) {
	conn := cluster.Get()
	defer conn.Close()
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "weight_*"}) // want `SORT BY "weight_\*" reads keys on any slot, which a cluster refuses \(ERR BY option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.\); begin the pattern with the sorted key`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "{ids}:w_*"})
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "{ids}w_*"})
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "{other}:w_*"}) // want `SORT BY "{other}:w_\*" reads keys on slot 11361, not the sorted key "{ids}".s slot 3296, which a cluster refuses \(ERR BY option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.\); begin the pattern`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: "w_*{ids}"})    // want `SORT BY "w_\*{ids}" reads keys on any slot`
	rdb.Sort(ctx, "ids", &goredis.Sort{Get: []string{"#"}})
	rdb.Sort(ctx, "{ids}", &goredis.Sort{Get: []string{"{ids}:o_*", "o_*"}}) // want `SORT GET "o_\*" reads keys on any slot`
	rdb.Sort(ctx, key, &goredis.Sort{By: "{ids}:w_*"})
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: pattern})
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: pattern + ":w_*"})
	c.Do(ctx, c.B().Sort().Key("{ids}").By(pattern+":w_*").Build())
	rdb.Do(ctx, "SORT", "{ids}", "BY", "{ids}:w_*", "GET", "#")
	rdb.Do(ctx, "SORT_RO", "{ids}", "BY", "{other}w_*") // want `SORT BY "{other}w_\*" reads keys on slot 11361`
	rdb.Sort(ctx, "ids", &goredis.Sort{By: "nosort"})
	conn.Do("SORT", "{ids}", "BY", "{ids}:w_*")
	conn.Do("SORT", "ids", "BY", "w_*") // want `SORT BY "w_\*" reads keys on any slot`
	c.Do(ctx, c.B().Sort().Key("{ids}").By("{ids}:w_*").Build())
	c.Do(ctx, c.B().Sort().Key("{ids}").By("{x}:w_*").Build()) // want `SORT BY "{x}:w_\*" reads keys on slot`
	rdb.Keys(ctx, "user:*")                                    // want `KEYS on a cluster client runs on one node and sees only the keys of that node.s slots; run it on each master with ForEachMaster$`
	rdb.Scan(ctx, 0, "user:*", 100)                            // want `SCAN on a cluster client runs on one node.*; run it on each master with ForEachMaster$`
	c.Do(ctx, c.B().Scan().Cursor(0).Build())                  // want `SCAN on a cluster client runs on one node.*; run it on each node of the client.s Nodes\(\)$`
}

// numbered: a pattern whose values the code does not fix but that cannot
// hold a brace (a number) has no tag: refused whatever they are; one under
// a caller's text has a tag if that text holds one, and is not reported.
func numbered(ctx context.Context, rdb *goredis.ClusterClient, pattern string, n int) {
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: strconv.Itoa(n) + ":w_*"}) // want `SORT BY pattern reads keys on any slot, which a cluster refuses`
	rdb.Sort(ctx, "{ids}", &goredis.Sort{By: pattern + ":w_*"})
}
