// Package readiness pins what a cluster refuses or does differently besides
// CROSSSLOT, with the near-misses that must stay silent.
package readiness

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func keyspace(ctx context.Context, cluster *redis.ClusterClient, single *redis.Client, u redis.UniversalClient) {
	cluster.Keys(ctx, "user:*")         // want `KEYS on a cluster client runs on one node and sees only the keys of that node's slots; run it on each master with ForEachMaster`
	cluster.Scan(ctx, 0, "user:*", 100) // want `SCAN on a cluster client runs on one node`
	cluster.FlushDB(ctx)                // want `FLUSHDB on a cluster client runs on one node and clears only the keys of that node's slots`
	cluster.FlushAll(ctx)               // want `FLUSHALL on a cluster client runs on one node and clears only`
	cluster.RandomKey(ctx)              // want `RANDOMKEY on a cluster client runs on one node`
	cluster.Do(ctx, "keys", "*")        // want `KEYS on a cluster client runs on one node`
	u.Keys(ctx, "*")                    // want `KEYS on a cluster client runs on one node`
	cluster.DBSize(ctx)                 // go-redis sums the masters
	single.Keys(ctx, "*")               // a *redis.Client talks to one server
	single.FlushDB(ctx)
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.FlushDB(ctx).Err() // each master's own keys
	})
}

func databases(ctx context.Context, cluster *redis.ClusterClient, conn *redis.Conn, db int) {
	cluster.Move(ctx, "k", 2)                    // want `MOVE needs a database other than 0, which a cluster does not have \(ERR MOVE is not allowed in cluster mode\); tell data apart by key prefix instead`
	cluster.Copy(ctx, "{k}:a", "{k}:b", 3, true) // want `COPY ... DB 3 needs a database other than 0`
	cluster.Copy(ctx, "{k}:a", "{k}:b", 0, true)
	cluster.Copy(ctx, "{k}:a", "{k}:b", db, true) // a database the code does not fix
	cluster.Do(ctx, "SELECT", 1)                  // want `SELECT 1 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\)`
	cluster.Do(ctx, "SELECT", 0)
	cluster.Do(ctx, "SWAPDB", 0, 1)                    // want `SWAPDB needs a database other than 0`
	cluster.Do(ctx, "COPY", "{k}:a", "{k}:b", "DB", 4) // want `COPY ... DB 4 needs`
	conn.Select(ctx, 2)                                // a connection of one server
	pipe := cluster.Pipeline()
	pipe.Select(ctx, 2) // want `SELECT 2 needs a database other than 0`
	pipe.Select(ctx, 0)
}

func options(ctx context.Context) {
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}, DB: 3})            // want `NewUniversalClient option DB 3 is dropped: for several addresses NewUniversalClient makes a cluster client, which reads and writes database 0`
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379"}, DB: 3, IsClusterMode: true}) // want `NewUniversalClient option DB 3 is dropped`
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379"}})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379"}, DB: 3}) // one server: its own databases
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 2})                              // one server (reported with -include-single-node)
	redis.NewClient(&redis.Options{Addr: "a:6379", DB: 0})
}

func sorts(ctx context.Context, cluster *redis.ClusterClient) {
	cluster.Sort(ctx, "ids", &redis.Sort{By: "weight_*"})                         // want `SORT BY "weight_\*" reads keys on any slot, which a cluster refuses \(ERR BY option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.\); begin the pattern with the sorted key's hash tag \(SORT {u}:ids BY {u}:w_\*\), or sort in the client`
	cluster.Sort(ctx, "ids", &redis.Sort{Get: []string{"#"}})                     // the element itself: accepted from Redis 7.4.2 and Valkey 8.1 (testdata/src/targets)
	cluster.Sort(ctx, "ids", &redis.Sort{By: "nosort"})                           // no pattern: the list's own order
	cluster.Sort(ctx, "ids", &redis.Sort{Order: "DESC", Alpha: true})             // no pattern
	cluster.SortStore(ctx, "{ids}", "{ids}:sorted", &redis.Sort{By: "w_{ids}_*"}) // the pattern's tag {ids} is the key's: accepted from Redis 7.4 and Valkey 8.0
	cluster.Do(ctx, "SORT", "ids", "LIMIT", 0, 10, "BY", "w_*")                   // want `SORT BY "w_\*" reads keys`
	cluster.Do(ctx, "SORT", "ids", "BY", "nosort")
}

func channels(ctx context.Context, cluster *redis.ClusterClient, single *redis.Client) {
	cluster.SSubscribe(ctx, "orders", "payments") // want `SSubscribe channels "orders" \(slot \d+\) and "payments" \(slot \d+\) are on different hash slots`
	cluster.SSubscribe(ctx, "{shop}:orders", "{shop}:payments")
	cluster.SSubscribe(ctx, "orders")
	ps := cluster.SSubscribe(ctx)
	ps.SSubscribe(ctx, "orders", "payments")     // want `SSubscribe channels "orders" \(slot \d+\) and "payments" \(slot \d+\) are on different hash slots`
	single.SSubscribe(ctx, "orders", "payments") // one server
	cluster.SPublish(ctx, "orders", "m")
}

// forwarder passes KEYS and MOVE on for its callers, like a library's
// wrapper or a mock: which client it holds is not known here.
type forwarder struct{ c redis.UniversalClient }

func (f forwarder) Keys(ctx context.Context, pattern string) error { // want Keys:`forwards KEYS\(p3\) at readiness.go:77`
	return f.c.Keys(ctx, pattern).Err()
}

func (f forwarder) Move(ctx context.Context, key string, db int) error {
	return f.c.Move(ctx, key, db).Err()
}

func proved(ctx context.Context) {
	u := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}})
	u.Keys(ctx, "*")    // want `KEYS on a cluster client runs on one node`
	u.Move(ctx, "k", 1) // want `MOVE needs a database other than 0`
}

// A cluster client given a command-info resolver splits MGET, EXISTS,
// TOUCH, DEL, UNLINK, MSET and MSETNX by slot: reads are fine, writes are
// no longer atomic; FLUSHDB runs on every master.
type shop struct{ rdb *redis.ClusterClient }

func newShop() *shop {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	return &shop{rdb: c}
}

func (s *shop) calls(ctx context.Context) {
	s.rdb.MGet(ctx, "a", "b") // split by slot and merged
	s.rdb.Exists(ctx, "a", "b")
	s.rdb.Touch(ctx, "a", "b")
	s.rdb.Del(ctx, "a", "b")              // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; the client's command-info resolver splits it by slot, so it does not fail but is not atomic`
	s.rdb.MSetNX(ctx, "a", "1", "b", "2") // want `MSetNX keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; the client's command-info resolver splits it`
	s.rdb.SUnion(ctx, "a", "b")           // want `^SUnion keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; give both keys one hash tag$`
	s.rdb.FlushDB(ctx)                    // every master, with the resolver
}

func resolverHere(ctx context.Context) {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	c.MGet(ctx, "a", "b")
	d := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	d.MGet(ctx, "a", "b") // want `^MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; send one call per slot, or give keys that belong together one hash tag$`
	d.FlushDB(ctx)        // want `FLUSHDB on a cluster client runs on one node`
}

func notifications(ctx context.Context, cluster *redis.ClusterClient, single *redis.Client, u redis.UniversalClient, ch string) {
	cluster.PSubscribe(ctx, "__keyevent@0__:expired")                // want `PSUBSCRIBE "__keyevent@0__:expired" on a cluster client listens on one node, and each node publishes the notifications of its own keys only: it receives one node's share of them; run it on each master with ForEachMaster`
	cluster.Subscribe(ctx, "orders", "__keyspace@0__:cart:1")        // want `SUBSCRIBE "__keyspace@0__:cart:1" on a cluster client listens on one node`
	cluster.ConfigSet(ctx, "notify-keyspace-events", "Ex")           // want `CONFIG SET notify-keyspace-events on a cluster client configures one node: the others publish no notifications; run it on each master with ForEachMaster`
	cluster.Do(ctx, "CONFIG", "SET", "notify-keyspace-events", "Ex") // want `CONFIG SET notify-keyspace-events on a cluster client configures one node`
	cluster.Subscribe(ctx, "orders")                                 // a channel a cluster broadcasts
	cluster.PSubscribe(ctx, "orders:*")                              // a pattern of ordinary channels
	cluster.ConfigSet(ctx, "maxmemory", "1gb")                       // not keyspace notifications
	cluster.PSubscribe(ctx, ch)                                      // a channel the code does not fix: counted, not reported
	u.PSubscribe(ctx, "__keyevent@0__:expired")                      // want `PSUBSCRIBE "__keyevent@0__:expired" on a cluster client listens on one node`
	single.PSubscribe(ctx, "__keyevent@0__:expired")                 // one server sees every event
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.PSubscribe(ctx, "__keyevent@0__:expired").Close() // each master's own events: the fix
	})
}

// Scripts run on the node of their keys: the commands their Lua sends are
// judged as the client's own.
func luaOnOneNode(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Eval(ctx, "return redis.call('KEYS', 'sess:*')", []string{"k"})                        // want `Eval script's KEYS runs on the node of the script's keys and sees only the keys of that node's slots`
	rdb.Eval(ctx, "redis.call('SELECT', 2); return redis.call('GET', KEYS[1])", []string{"k"}) // want `Eval script's SELECT 2 needs a database other than 0`
	rdb.Eval(ctx, "return redis.call('FLUSHDB')", nil)                                         // want `Eval script's FLUSHDB runs on the node of the script's keys and clears only`
	rdb.Eval(ctx, "return redis.call('RANDOMKEY')", nil)                                       // want `Eval script's RANDOMKEY runs on the node`
	rdb.Eval(ctx, "return redis.call('SCAN', 0)", nil)                                         // want `Eval script's SCAN runs on the node`
	rdb.Eval(ctx, "return redis.call('SELECT', 0)", nil)
	rdb.Eval(ctx, "return redis.call('GET', KEYS[1])", []string{"k"})
	rdb.Eval(ctx, "return redis.call('DBSIZE')", nil)
}

// On a client that may be either, a script's keyspace-wide command is
// reported as the client's own would be.
func luaMayBeEither(ctx context.Context, rdb redis.UniversalClient) {
	rdb.Eval(ctx, "return redis.call('KEYS', 'sess:*')", nil) // want `Eval script's KEYS runs on the node of the script's keys`
	rdb.Eval(ctx, "return redis.call('SELECT', 2)", nil)      // want `Eval script's SELECT 2 needs a database other than 0`
}

// SCRIPT LOAD and FUNCTION LOAD reach one node of a cluster client; the
// cluster client's ScriptLoad loads on every master.
func loads(ctx context.Context, rdb *redis.ClusterClient, single *redis.Client) {
	rdb.Do(ctx, "SCRIPT", "LOAD", "return 1")           // want `SCRIPT LOAD on a cluster client runs on one node and loads the script there only: an EVALSHA of it fails with NOSCRIPT on the others; load it with the cluster client's ScriptLoad`
	rdb.FunctionLoad(ctx, "#!lua name=lib\n")           // want `FUNCTION LOAD on a cluster client runs on one node and loads the library there only`
	rdb.Do(ctx, "FUNCTION", "LOAD", "#!lua name=lib\n") // want `FUNCTION LOAD on a cluster client runs on one node`
	rdb.ScriptLoad(ctx, "return 1")
	rdb.Do(ctx, "SCRIPT", "EXISTS", "abc")
	rdb.Do(ctx, "FUNCTION", "LIST")
	single.Do(ctx, "SCRIPT", "LOAD", "return 1")
}

// A store whose client may be either: its own keyspace-wide commands are
// reported; a method that forwards what it is given is its callers' to
// decide (a library's Keys(pattern), a mock's ExpectKeys(pattern)).
type store struct{ rdb redis.UniversalClient }

func (s *store) clearCarts(ctx context.Context) {
	var cursor uint64
	for {
		keys, next, _ := s.rdb.Scan(ctx, cursor, "cart:*", 200).Result() // want `SCAN on a cluster client runs on one node`
		s.rdb.Unlink(ctx, keys...)                                       // want `Unlink keys "cart:<\*>" for two different keys that SCAN`
		if cursor = next; cursor == 0 {
			return
		}
	}
}

func (s *store) Keys(ctx context.Context, pattern string) []string { // want Keys:`forwards KEYS\(p3\) at readiness.go:185`
	return s.rdb.Keys(ctx, pattern).Val()
}

// A pattern with text of its own before the parameter, or a SCAN whose
// cursor alone is a parameter (a page of a listing), is the function's own
// command, judged here.
func (s *store) Sessions(ctx context.Context, user string) []string {
	return s.rdb.Keys(ctx, "sess:"+user+":*").Val() // want `KEYS on a cluster client runs on one node`
}

func (s *store) Page(ctx context.Context, cursor uint64, count int64) []string {
	keys, _ := s.rdb.Scan(ctx, cursor, "sess:*", count).Val() // want `SCAN on a cluster client runs on one node`
	return keys
}

func (s *store) ExpectKeys(ctx context.Context, prefix string) { // want ExpectKeys:`forwards KEYS\(p3\) at readiness.go:201; forwards KEYS\(p3\) at readiness.go:202`
	s.rdb.Keys(ctx, prefix+"*")
	s.rdb.Do(ctx, "KEYS", prefix+":*")
	s.rdb.PSubscribe(ctx, "__keyspace@0__:"+prefix)
}

// A mock that builds the commands it expects keeps them in a field: it
// runs nothing (redismock's ExpectFlushAll).
type expected struct{ cmd *redis.StatusCmd }

type mock struct{ factory redis.UniversalClient }

func (m *mock) ExpectFlushAll(ctx context.Context) *expected {
	e := &expected{}
	e.cmd = m.factory.FlushAll(ctx)
	return e
}

// A master's client is a cluster node: its SCAN is the fix, and it refuses
// keys of two slots in one command as the cluster does.
func perMasterDelete(ctx context.Context, cluster *redis.ClusterClient) {
	cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		keys, _, err := m.Scan(ctx, 0, "sess:*", 100).Result()
		if err != nil {
			return err
		}
		m.Del(ctx, "{a}:x", "{a}:y")
		return m.Del(ctx, keys...).Err() // want `Del keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots`
	})
}
