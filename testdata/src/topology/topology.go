// Package topology pins what the reading says a client talks to
// (reading.TopologyAt): one answer per client, whatever command is sent,
// except where a type check on it ruled a cluster client in.
package topology

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var ctx = context.Background()

func byType(c *redis.Client, cc *redis.ClusterClient, u redis.UniversalClient) {
	c.Get(ctx, "k")  // want `one server`
	cc.Get(ctx, "k") // want `cluster`
	u.Get(ctx, "k")  // want `either`
}

func byConstructor() {
	one := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{":6379"}})
	one.Get(ctx, "k") // want `one server`
	many := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{":7000", ":7001"}})
	many.Get(ctx, "k") // want `cluster`
	sentinel := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{":26379", ":26380"}, MasterName: "m"})
	sentinel.Get(ctx, "k") // want `one server`
	failover := redis.NewFailoverClusterClient(&redis.FailoverOptions{})
	failover.Get(ctx, "k") // want `one server`
}

// A field answers once for all its loads: what the package stores in it.
type store struct {
	rdb   redis.UniversalClient
	mixed redis.UniversalClient
}

func newStore() *store {
	return &store{rdb: redis.NewClusterClient(&redis.ClusterOptions{}), mixed: redis.NewClient(&redis.Options{})}
}

func (s *store) useCluster() {
	s.rdb.Get(ctx, "k") // want `cluster`
	s.rdb.Set(ctx, "k", 1, 0) // want `cluster`
}

func (s *store) reset() { s.mixed = redis.NewClusterClient(&redis.ClusterOptions{}) }

func (s *store) useMixed() {
	s.mixed.Get(ctx, "k") // want `either`
}

// The nodes a cluster client hands out are one node each, used as such.
func perNode(cc *redis.ClusterClient) {
	cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error { // want `cluster`
		return node.FlushDB(ctx).Err() // want `node, cluster's node`
	})
	switch c := redis.UniversalClient(cc).(type) {
	case *redis.Client:
		c.FlushDB(ctx) // want `one server, node`
	}
}

// A resolver splits some multi-key commands by slot.
func splitting() {
	cc := redis.NewClusterClient(&redis.ClusterOptions{})
	cc.SetCommandInfoResolver(cc.NewDynamicResolver()) // want `cluster, splits` `cluster, splits`
	cc.MGet(ctx, "a", "b")                             // want `cluster, splits`
}

func rueidisClients() {
	single, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{":6379"}, ForceSingleClient: true})
	single.Do(ctx, single.B().Get().Key("k").Build()) // want `one server`
	cluster, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{":7000", ":7001"}})
	cluster.Do(ctx, cluster.B().Get().Key("k").Build()) // want `cluster`
	for _, node := range cluster.Nodes() {
		node.Do(ctx, node.B().Keys().Pattern("*").Build()) // want `node, cluster's node`
	}
}

// A type check answers for the calls its branch dominates, in its own
// function: a cluster where it ruled one in; the field's own answer
// anywhere else (the failing branch is left out by the checks, not here).
type checked struct{ rdb redis.UniversalClient }

func newChecked() *checked { return &checked{rdb: redis.NewClient(&redis.Options{})} }

func (c *checked) check() {
	if _, ok := c.rdb.(*redis.ClusterClient); ok {
		c.rdb.Get(ctx, "k") // want `^cluster$`
	}
	c.rdb.Get(ctx, "k") // want `^one server$`
	switch c.rdb.(type) {
	case *redis.ClusterClient:
		c.rdb.Get(ctx, "k") // want `^cluster$`
	default:
		c.rdb.Get(ctx, "k") // want `^one server$`
	}
}

func (c *checked) sibling() {
	c.rdb.Get(ctx, "k") // want `^one server$`
}
