// Package valkey9 is run with -crossslot.target=valkey9:16 and
// -include-single-node: a Valkey 9 cluster with cluster-databases 16 has
// databases 0 to 15, and accepts SELECT, MOVE and COPY ... DB of those;
// SWAPDB stays disabled, and a cluster client still drops a DB option.
package valkey9

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

func databases(ctx context.Context, rdb *redis.ClusterClient, c rueidis.Client) {
	rdb.Do(ctx, "SELECT", 3)
	rdb.Do(ctx, "SELECT", 15)
	rdb.Do(ctx, "SELECT", 16) // want `SELECT 16 needs a database the cluster does not have: Valkey 9.0 with cluster-databases 16 has databases 0 to 15; use one of those`
	rdb.Move(ctx, "k", 2)
	rdb.Do(ctx, "MOVE", "k", 40) // want `MOVE needs a database the cluster does not have`
	rdb.Copy(ctx, "{k}a", "{k}b", 2, false)
	rdb.Do(ctx, "SWAPDB", 0, 1) // want `SWAPDB needs a database the cluster does not have`
	c.Do(ctx, c.B().Select().Index(4).Build())
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 2})
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 20}) // want `NewClient option DB 20 needs a database the cluster does not have`
	rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:6379"}, SelectDB: 5})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}, DB: 3}) // want `NewUniversalClient option DB 3 is dropped`
}

// With addresses the code does not count, a plain client of one cluster
// node has database 4; the cluster client several addresses make drops it.
func universal(addrs []string) {
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, DB: 4})  // want `NewUniversalClient option DB 4 is dropped if the addresses are several: NewUniversalClient then makes a cluster client, which reads and writes database 0; tell data apart by key prefix instead`
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, DB: 20}) // want `NewUniversalClient option DB 20 is dropped or refused on a cluster`
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs})
}
