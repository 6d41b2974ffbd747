// Package readinesssingle is run with -include-single-node: what breaks if
// these single-node clients become cluster clients.
package readinesssingle

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func moveToCluster(ctx context.Context, single *redis.Client, conn *redis.Conn) {
	single.Keys(ctx, "*")                                  // want `KEYS on a cluster client runs on one node`
	conn.Select(ctx, 2)                                    // want `SELECT 2 needs a database other than 0`
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 2}) // want `NewClient option DB 2 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\)`
	redis.NewClient(&redis.Options{Addr: "a:6379"})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379"}, DB: 3}) // want `NewUniversalClient option DB 3 needs a database other than 0`
	single.SSubscribe(ctx, "orders", "payments")                                        // want `SSubscribe channels "orders" \(slot \d+\) and "payments" \(slot \d+\) are on different hash slots`
	conn.Select(ctx, 0)
}
