// Package readinesssingle is run with -include-single-node: what breaks if
// these single-node clients become cluster clients.
package readinesssingle

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

func moveToCluster(ctx context.Context, single *redis.Client, conn *redis.Conn) {
	single.Keys(ctx, "*")                                  // want `KEYS on a cluster client runs on one node`
	conn.Select(ctx, 2)                                    // want `SELECT 2 needs a database other than 0`
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 2}) // want `NewClient option DB 2 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\)`
	redis.NewClient(&redis.Options{Addr: "a:6379"})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379"}, DB: 3}) // want `NewUniversalClient option DB 3 needs a database other than 0`
	single.SSubscribe(ctx, "orders", "payments")                                        // want `SSubscribe channels "orders" \(slot \d+\) and "payments" \(slot \d+\) are on different hash slots`
	conn.Select(ctx, 0)
	single.Do(ctx, "SCRIPT", "LOAD", "return 1") // want `SCRIPT LOAD on a cluster client runs on one node and loads the script there only: an EVALSHA of it fails with NOSCRIPT on the others`
}

// Every client's database option: rueidis's and valkey-go's SelectDB, and
// redigo's DialDatabase, all sent as SELECT on each connection (rueidis's
// NewClient fails with it on a cluster node). Options the code does not fix
// (from configuration) are counted as undecided, not reported.
func databaseOptions(dbFromConfig int, addrs []string, opts *redis.Options) {
	rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, SelectDB: 2}) // want `NewClient option SelectDB 2 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\)`
	valkey.NewClient(valkey.ClientOption{InitAddress: addrs, SelectDB: 1})   // want `NewClient option SelectDB 1 needs a database other than 0`
	redigo.Dial("tcp", "a:6379", redigo.DialDatabase(3))                     // want `DialDatabase 3 needs a database other than 0`
	rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs})
	rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, SelectDB: 0})
	redigo.Dial("tcp", "a:6379", redigo.DialDatabase(0))
	redigo.Dial("tcp", "a:6379", redigo.DialDatabase(dbFromConfig))
	rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, SelectDB: dbFromConfig})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, DB: dbFromConfig})
	redis.NewClient(opts)
}

// Per-node code is the fix, not the problem: the client a cluster client
// hands out for one node, used as such, is never reported as onenode or
// keyspace, even here.
func perNode(ctx context.Context, cluster *redis.ClusterClient, u redis.UniversalClient, ru rueidis.Client, rc *redisc.Cluster) {
	cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		node.Scan(ctx, 0, "sess:*", 100)
		node.PSubscribe(ctx, "__keyevent@0__:expired")
		return node.FlushDB(ctx).Err()
	})
	cluster.ForEachShard(ctx, func(ctx context.Context, shard *redis.Client) error {
		return shard.Keys(ctx, "sess:*").Err()
	})
	for _, node := range ru.Nodes() {
		node.Do(ctx, node.B().Keys().Pattern("sess:*").Build())
	}
	rc.EachNode(false, func(addr string, conn redigo.Conn) error {
		_, err := conn.Do("KEYS", "sess:*")
		return err
	})
	switch c := u.(type) {
	case *redis.ClusterClient:
		c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error { return node.FlushDB(ctx).Err() })
	case *redis.Client:
		c.FlushDB(ctx)
	}
	if c, ok := u.(*redis.Client); ok {
		c.Keys(ctx, "sess:*")
	}
	// Near-misses: the same commands on the cluster client itself, on a
	// single-node client of its own, and a node used for SELECT.
	cluster.Keys(ctx, "sess:*") // want `KEYS on a cluster client runs on one node`
	cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		return node.Do(ctx, "SELECT", 2).Err() // want `SELECT 2 needs a database other than 0`
	})
	other := redis.NewClient(&redis.Options{Addr: "a:6379"})
	cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		return other.Keys(ctx, "sess:*").Err() // want `KEYS on a cluster client runs on one node`
	})
}

// A wrapper that forwards KEYS on its one server's client is its callers'
// to decide, here too; a mock's recording runs nothing.
type cache struct{ rdb *redis.Client }

func (c *cache) Keys(ctx context.Context, pattern string) []string { // want Keys:`forwards KEYS\(p3\) at single.go:\d+`
	return c.rdb.Keys(ctx, pattern).Val()
}

func (c *cache) ExpectFlushAll(ctx context.Context) {
	e := &expectation{}
	e.cmd = c.rdb.FlushAll(ctx)
}

type expectation struct{ cmd *redis.StatusCmd }

func (c *cache) sessions(ctx context.Context) []string {
	return c.Keys(ctx, "sess:*") // want `^cache.Keys sends KEYS \(single.go:\d+\) on a client that may be a cluster client, where it runs on one node`
}
