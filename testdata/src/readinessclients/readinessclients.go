// Package readinessclients pins the readiness checks on rueidis's builder
// and redigo's command lines through redisc.
package readinessclients

import (
	"context"

	"github.com/mna/redisc"
	"github.com/redis/rueidis"
)

func builders(ctx context.Context, c rueidis.Client) {
	c.Do(ctx, c.B().Select().Index(2).Build()) // want `SELECT 2 needs a database other than 0, which a cluster does not have`
	c.Do(ctx, c.B().Select().Index(0).Build())
	c.Do(ctx, c.B().Copy().Source("{k}a").Destination("{k}b").Db(3).Build()) // want `COPY ... DB 3 needs a database other than 0`
	c.Do(ctx, c.B().Copy().Source("{k}a").Destination("{k}b").Build())
	c.Do(ctx, c.B().Sort().Key("ids").By("w_*").Build()) // want `SORT BY "w_\*" reads keys on any slot`
	c.Do(ctx, c.B().Sort().Key("ids").By("nosort").Build())
	c.Do(ctx, c.B().Sort().Key("ids").Get().Get("#").Build())   // the element itself (testdata/src/targets)
	c.Do(ctx, c.B().Sort().Key("ids").Get().Get("o_*").Build()) // want `SORT GET "o_\*" reads keys on any slot`
	c.Do(ctx, c.B().Sort().Key("{ids}").Get().Get("{ids}o_*").Build())
	c.Do(ctx, c.B().Ssubscribe().Channel("orders", "payments").Build()) // want `SSUBSCRIBE channels "orders" \(slot 105\) and "payments" \(slot 8507\) are on different hash slots; the cluster client's builder panics`
	c.Do(ctx, c.B().Ssubscribe().Channel("{shop}orders", "{shop}payments").Build())
	c.Do(ctx, c.B().Arbitrary("SELECT").Args("3").Build()) // want `SELECT 3 needs a database other than 0`
	c.Do(ctx, c.B().Keys().Pattern("*").Build())           // want `KEYS on a cluster client runs on one node`
	c.Do(ctx, c.B().Move().Key("k").Db(1).Build())         // want `MOVE needs a database other than 0`
	c.Do(ctx, c.B().Dbsize().Build())
}

func provedCluster(ctx context.Context) {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:7000", "b:7000"}})
	c.Do(ctx, c.B().Keys().Pattern("*").Build())                                // want `KEYS on a cluster client runs on one node and sees only the keys of that node's slots; run it on each node of the client's Nodes\(\)`
	c.Do(ctx, c.B().Flushdb().Build())                                          // want `FLUSHDB on a cluster client runs on one node and clears only`
	c.Do(ctx, c.B().Move().Key("k").Db(1).Build())                              // want `MOVE needs a database other than 0`
	c.Receive(ctx, c.B().Psubscribe().Pattern("__keyevent@0__:*").Build(), nil) // want `PSUBSCRIBE "__keyevent@0__:\*" on a cluster client listens on one node, and each node publishes the notifications of its own keys only: it receives one node's share of them; run it on each node of the client's Nodes\(\)`
	c.Receive(ctx, c.B().Psubscribe().Pattern("orders:*").Build(), nil)
}

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

func lines() {
	c := cluster.Get()
	defer c.Close()
	c.Do("SELECT", 2) // want `SELECT 2 needs a database other than 0`
	c.Do("SELECT", 0)
	c.Do("SORT", "ids", "BY", "w_*")                       // want `SORT BY "w_\*" reads keys on any slot`
	c.Do("SSUBSCRIBE", "orders", "payments")               // want `SSUBSCRIBE channels "orders" \(slot 105\) and "payments" \(slot 8507\) are on different hash slots`
	c.Do("KEYS", "*")                                      // want `KEYS on a cluster client runs on one node and sees only the keys of that node's slots; run it on a connection to each master`
	c.Do("PSUBSCRIBE", "__keyspace@0__:*")                 // want `PSUBSCRIBE "__keyspace@0__:\*" on a cluster client listens on one node`
	c.Do("CONFIG", "SET", "notify-keyspace-events", "KEA") // want `CONFIG SET notify-keyspace-events on a cluster client configures one node`
	c.Do("DBSIZE")
}
