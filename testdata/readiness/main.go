// Command readiness runs, on a three-master cluster, what a cluster refuses
// or does differently besides CROSSSLOT, through go-redis, rueidis and
// redigo with redisc. Functions named bad* hold a call
// crossslot reports: each returns the cluster's error, or says what it lost
// (keys a one-node KEYS did not see, a database a cluster client dropped).
// good* ones it leaves alone, and they succeed. undecided* ones make a
// client whose constructor does not say whether it reaches a cluster: by
// default crossslot counts them as undecided, with -include-single-node it
// reports them, and on the cluster they fail.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

type env struct {
	rdb   *redis.ClusterClient
	addrs []string // the masters
	rc    *redisc.Cluster
}

// prefix is a fresh key prefix per run: runs and other tests share the cluster.
func prefix() string { return "ready:" + strconv.FormatUint(rand.Uint64(), 36) + ":" }

// setMany writes n keys spread over the slots.
func (e env) setMany(ctx context.Context, p string, n int) error {
	for i := range n {
		if err := e.rdb.Set(ctx, p+strconv.Itoa(i), i, time.Minute).Err(); err != nil {
			return err
		}
	}
	return nil
}

func badKeys(ctx context.Context, e env) error {
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	keys, err := e.rdb.Keys(ctx, p+"*").Result()
	if err != nil {
		return err
	}
	if len(keys) < 20 {
		return fmt.Errorf("lost: KEYS saw %d of 20 keys", len(keys))
	}
	return nil
}

func goodKeysOnEachMaster(ctx context.Context, e env) error {
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	var seen atomic.Int64 // ForEachMaster runs fn on the masters concurrently
	err := e.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		keys, err := m.Keys(ctx, p+"*").Result()
		seen.Add(int64(len(keys)))
		return err
	})
	if err != nil {
		return err
	}
	if n := seen.Load(); n != 20 {
		return fmt.Errorf("lost: KEYS on each master saw %d of 20 keys", n)
	}
	return nil
}

func badScan(ctx context.Context, e env) error {
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	n := 0
	iter := e.rdb.Scan(ctx, 0, p+"*", 1000).Iterator()
	for iter.Next(ctx) {
		n++
	}
	if err := iter.Err(); err != nil {
		return err
	}
	if n < 20 {
		return fmt.Errorf("lost: SCAN saw %d of 20 keys", n)
	}
	return nil
}

func goodDBSize(ctx context.Context, e env) error {
	return e.rdb.DBSize(ctx).Err() // go-redis sums the masters
}

func badSelect(ctx context.Context, e env) error {
	return e.rdb.Do(ctx, "SELECT", 1).Err()
}

func goodSelectZero(ctx context.Context, e env) error {
	return e.rdb.Do(ctx, "SELECT", 0).Err()
}

func badMove(ctx context.Context, e env) error {
	return e.rdb.Move(ctx, prefix()+"m", 1).Err()
}

func badCopyToDB(ctx context.Context, e env) error {
	p := "{" + prefix() + "}"
	return e.rdb.Copy(ctx, p+"a", p+"b", 2, true).Err()
}

func goodCopySameDB(ctx context.Context, e env) error {
	p := "{" + prefix() + "}"
	return e.rdb.Copy(ctx, p+"a", p+"b", 0, true).Err()
}

func badSwapDB(ctx context.Context, e env) error {
	return e.rdb.Do(ctx, "SWAPDB", 0, 1).Err()
}

func badSortBy(ctx context.Context, e env) error {
	return e.rdb.Sort(ctx, prefix()+"ids", &redis.Sort{By: "weight_*"}).Err()
}

func badSortGet(ctx context.Context, e env) error {
	return e.rdb.Sort(ctx, prefix()+"ids", &redis.Sort{Get: []string{"#"}}).Err()
}

func goodSortNoSort(ctx context.Context, e env) error {
	p := prefix()
	if err := e.rdb.RPush(ctx, p+"ids", 3, 1, 2).Err(); err != nil {
		return err
	}
	return e.rdb.Sort(ctx, p+"ids", &redis.Sort{By: "nosort"}).Err()
}

// subscribeError subscribes to sharded channels and returns the server's
// answer to the subscription.
func subscribeError(ctx context.Context, ps *redis.PubSub) error {
	defer ps.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := ps.Receive(ctx)
	return err
}

func badSSubscribe(ctx context.Context, e env) error {
	p := prefix()
	ps := e.rdb.SSubscribe(ctx)
	if err := ps.SSubscribe(ctx, p+"orders", p+"payments"); err != nil {
		return err
	}
	return subscribeError(ctx, ps)
}

func goodSSubscribeTagged(ctx context.Context, e env) error {
	p := "{" + prefix() + "}"
	ps := e.rdb.SSubscribe(ctx)
	if err := ps.SSubscribe(ctx, p+"orders", p+"payments"); err != nil {
		return err
	}
	return subscribeError(ctx, ps)
}

// badUniversalDB writes through a universal client of several addresses
// given database 3, and reads back where the key went.
func badUniversalDB(ctx context.Context, e env) error {
	u := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{e.addrs[0], e.addrs[1]}, DB: 3})
	defer u.Close()
	k := prefix() + "db3"
	if err := u.Set(ctx, k, "v", time.Minute).Err(); err != nil {
		return err
	}
	if _, isCluster := u.(*redis.ClusterClient); isCluster && e.rdb.Exists(ctx, k).Val() == 1 {
		return errors.New("lost: the key meant for database 3 is in database 0 of the cluster")
	}
	return nil
}

func goodUniversalNoDB(ctx context.Context, e env) error {
	u := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{e.addrs[0], e.addrs[1]}})
	defer u.Close()
	return u.Set(ctx, prefix()+"db0", "v", time.Minute).Err()
}

// splitting is a cluster client given a command-info resolver: it splits
// MGET, EXISTS, TOUCH, DEL, UNLINK, MSET and MSETNX by slot.
func (e env) splitting() *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: e.addrs})
	c.SetCommandInfoResolver(c.NewDynamicResolver())
	return c
}

func goodSplitRead(ctx context.Context, e env) error {
	c := e.splitting()
	defer c.Close()
	p := prefix()
	return c.MGet(ctx, p+"a", p+"b", p+"c").Err()
}

// badSplitMSetNX sets a key of one slot though a key of another slot
// exists: MSETNX's all-or-nothing is gone.
func badSplitMSetNX(ctx context.Context, e env) error {
	c := e.splitting()
	defer c.Close()
	p := prefix()
	if err := c.Set(ctx, p+"taken", "x", time.Minute).Err(); err != nil {
		return err
	}
	set, err := c.MSetNX(ctx, p+"taken", "y", p+"free", "y").Result()
	if err != nil {
		return err
	}
	if n := c.Exists(ctx, p+"free").Val(); !set && n == 1 {
		return errors.New("lost: MSETNX set a key though another existed: not atomic")
	}
	return nil
}

// rueidisCluster is a rueidis client of two addresses: a cluster client.
func (e env) rueidisCluster() (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{e.addrs[0], e.addrs[1]}})
}

func badRueidisKeys(ctx context.Context, e env) error {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{e.addrs[0], e.addrs[1]}})
	if err != nil {
		return err
	}
	defer c.Close()
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	keys, err := c.Do(ctx, c.B().Keys().Pattern(p+"*").Build()).AsStrSlice()
	if err != nil {
		return err
	}
	if len(keys) < 20 {
		return fmt.Errorf("lost: KEYS saw %d of 20 keys", len(keys))
	}
	return nil
}

func badRueidisSelect(ctx context.Context, e env) error {
	c, err := e.rueidisCluster()
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Select().Index(2).Build()).Error()
}

func badRueidisSortBy(ctx context.Context, e env) error {
	c, err := e.rueidisCluster()
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Sort().Key(prefix()+"ids").By("w_*").Build()).Error()
}

func goodRueidisSortNoSort(ctx context.Context, e env) error {
	c, err := e.rueidisCluster()
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Sort().Key(prefix()+"ids").By("nosort").Build()).Error()
}

func badRueidisSSubscribe(ctx context.Context, e env) error {
	c, err := e.rueidisCluster()
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Ssubscribe().Channel("orders", "payments").Build()).Error()
}

func goodRueidisDbsize(ctx context.Context, e env) error {
	c, err := e.rueidisCluster()
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Do(ctx, c.B().Dbsize().Build()).Error()
}

func badRedigoSelect(ctx context.Context, e env) error {
	conn := e.rc.Get()
	defer conn.Close()
	_, err := conn.Do("SELECT", 2)
	return err
}

func badRedigoKeys(ctx context.Context, e env) error {
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	conn := e.rc.Get()
	defer conn.Close()
	keys, err := redigo.Strings(conn.Do("KEYS", p+"*"))
	if err != nil {
		return err
	}
	if len(keys) < 20 {
		return fmt.Errorf("lost: KEYS saw %d of 20 keys", len(keys))
	}
	return nil
}

func goodRedigoSelectZero(ctx context.Context, e env) error {
	conn := e.rc.Get()
	defer conn.Close()
	_, err := conn.Do("SELECT", 0)
	return err
}

// notifications turns keyspace notifications of string commands on, or
// off (""), on every master.
func (e env) notifications(ctx context.Context, flags string) error {
	return e.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.ConfigSet(ctx, "notify-keyspace-events", flags).Err()
	})
}

// countEvents sets 30 keys of a fresh prefix and counts the "set" events
// about them that ps's channels deliver.
func (e env) countEvents(ctx context.Context, subs ...*redis.PubSub) (int64, error) {
	p := prefix()
	var n atomic.Int64
	for _, ps := range subs {
		if _, err := ps.Receive(ctx); err != nil {
			return 0, err
		}
		go func() {
			for m := range ps.Channel() {
				if strings.HasPrefix(m.Payload, p) {
					n.Add(1)
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if err := e.setMany(ctx, p, 30); err != nil {
		return 0, err
	}
	time.Sleep(300 * time.Millisecond)
	for _, ps := range subs {
		ps.Close()
	}
	return n.Load(), nil
}

func badKeyspaceSubscribe(ctx context.Context, e env) error {
	if err := e.notifications(ctx, "E$"); err != nil {
		return err
	}
	defer e.notifications(ctx, "")
	n, err := e.countEvents(ctx, e.rdb.PSubscribe(ctx, "__keyevent@0__:set"))
	if err != nil {
		return err
	}
	if n < 30 {
		return fmt.Errorf("lost: PSUBSCRIBE through the cluster client received %d of 30 events", n)
	}
	return nil
}

func goodKeyspaceOnEachMaster(ctx context.Context, e env) error {
	if err := e.notifications(ctx, "E$"); err != nil {
		return err
	}
	defer e.notifications(ctx, "")
	var subs []*redis.PubSub
	var mu sync.Mutex
	err := e.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		ps := m.PSubscribe(ctx, "__keyevent@0__:set")
		mu.Lock()
		subs = append(subs, ps)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	n, err := e.countEvents(ctx, subs...)
	if err != nil {
		return err
	}
	if n != 30 {
		return fmt.Errorf("lost: PSUBSCRIBE on each master received %d of 30 events", n)
	}
	return nil
}

func badKeyspaceConfigSet(ctx context.Context, e env) error {
	defer e.notifications(ctx, "")
	if err := e.rdb.ConfigSet(ctx, "notify-keyspace-events", "E$").Err(); err != nil {
		return err
	}
	var set atomic.Int64
	err := e.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		v, err := m.ConfigGet(ctx, "notify-keyspace-events").Result()
		if v["notify-keyspace-events"] != "" {
			set.Add(1)
		}
		return err
	})
	if err != nil {
		return err
	}
	if n := set.Load(); n < int64(len(e.addrs)) {
		return fmt.Errorf("lost: CONFIG SET through the cluster client reached %d of %d masters", n, len(e.addrs))
	}
	return nil
}

// A script runs on the node of its keys: what its Lua sends is judged as
// the client's own.
func badLuaKeys(ctx context.Context, e env) error {
	p := prefix()
	if err := e.setMany(ctx, p, 20); err != nil {
		return err
	}
	n, err := e.rdb.Eval(ctx, "return #redis.call('KEYS', ARGV[1])", []string{p + "probe"}, p+"*").Int()
	if err != nil {
		return err
	}
	if n < 20 {
		return fmt.Errorf("lost: KEYS in a script saw %d of 20 keys", n)
	}
	return nil
}

func badLuaSelect(ctx context.Context, e env) error {
	return e.rdb.Eval(ctx, "redis.call('SELECT', 2); return redis.call('GET', KEYS[1])", []string{prefix() + "k"}).Err()
}

func goodLuaSelectZero(ctx context.Context, e env) error {
	return e.rdb.Eval(ctx, "redis.call('SELECT', 0); return redis.call('GET', KEYS[1])", []string{prefix() + "k"}).Err()
}

// evalShaEverywhere runs a loaded script's SHA1 with keys on every master:
// NOSCRIPT where it was not loaded.
func (e env) evalShaEverywhere(ctx context.Context, src string) error {
	sha := redis.NewScript(src).Hash()
	for i := range 12 {
		if err := e.rdb.EvalSha(ctx, sha, []string{prefix() + strconv.Itoa(i)}).Err(); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
	}
	return nil
}

// fcallEverywhere calls a function with keys on every master.
func (e env) fcallEverywhere(ctx context.Context, fn string) error {
	for i := range 12 {
		if err := e.rdb.FCall(ctx, fn, []string{prefix() + strconv.Itoa(i)}).Err(); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
	}
	return nil
}

// uniqueScript is a script no earlier run loaded.
func uniqueScript() string { return "return '" + prefix() + "'" }

func badScriptLoadDo(ctx context.Context, e env) error {
	src := uniqueScript()
	if err := e.rdb.Do(ctx, "SCRIPT", "LOAD", src).Err(); err != nil {
		return err
	}
	return e.evalShaEverywhere(ctx, src)
}

func goodScriptLoad(ctx context.Context, e env) error {
	src := uniqueScript()
	if err := e.rdb.ScriptLoad(ctx, src).Err(); err != nil {
		return err
	}
	return e.evalShaEverywhere(ctx, src)
}

func badFunctionLoad(ctx context.Context, e env) error {
	name := "f" + strconv.FormatUint(rand.Uint64(), 36)
	if err := e.rdb.FunctionLoad(ctx, "#!lua name="+name+"\nredis.register_function('"+name+"', function() return 1 end)").Err(); err != nil {
		return err
	}
	return e.fcallEverywhere(ctx, name)
}

func badRueidisScriptLoad(ctx context.Context, e env) error {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{e.addrs[0], e.addrs[1]}})
	if err != nil {
		return err
	}
	defer c.Close()
	src := uniqueScript()
	if err := c.Do(ctx, c.B().ScriptLoad().Script(src).Build()).Error(); err != nil {
		return err
	}
	return e.evalShaEverywhere(ctx, src)
}

func badRedigoScriptLoad(ctx context.Context, e env) error {
	conn := e.rc.Get()
	defer conn.Close()
	src := uniqueScript()
	if _, err := conn.Do("SCRIPT", "LOAD", src); err != nil {
		return err
	}
	return e.evalShaEverywhere(ctx, src)
}

// Every client's database option, on a cluster node: refused at connect.
func undecidedGoRedisDB(ctx context.Context, e env) error {
	c := redis.NewClient(&redis.Options{Addr: e.addrs[0], DB: 2})
	defer c.Close()
	return c.Ping(ctx).Err()
}

func undecidedRueidisSelectDB(ctx context.Context, e env) error {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.addrs, SelectDB: 2})
	if err != nil {
		return err
	}
	c.Close()
	return nil
}

func undecidedRedigoDialDatabase(ctx context.Context, e env) error {
	c, err := redigo.Dial("tcp", e.addrs[0], redigo.DialDatabase(2))
	if err != nil {
		return err
	}
	return c.Close()
}

func goodRueidisNoSelectDB(ctx context.Context, e env) error {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: e.addrs, SelectDB: 0})
	if err != nil {
		return err
	}
	c.Close()
	return nil
}

var scenarios = []struct {
	name string
	run  func(context.Context, env) error
}{
	{"badKeys", badKeys},
	{"goodKeysOnEachMaster", goodKeysOnEachMaster},
	{"badScan", badScan},
	{"goodDBSize", goodDBSize},
	{"badSelect", badSelect},
	{"goodSelectZero", goodSelectZero},
	{"badMove", badMove},
	{"badCopyToDB", badCopyToDB},
	{"goodCopySameDB", goodCopySameDB},
	{"badSwapDB", badSwapDB},
	{"badSortBy", badSortBy},
	{"badSortGet", badSortGet},
	{"goodSortNoSort", goodSortNoSort},
	{"badSSubscribe", badSSubscribe},
	{"goodSSubscribeTagged", goodSSubscribeTagged},
	{"badUniversalDB", badUniversalDB},
	{"goodUniversalNoDB", goodUniversalNoDB},
	{"goodSplitRead", goodSplitRead},
	{"badSplitMSetNX", badSplitMSetNX},
	{"badRueidisKeys", badRueidisKeys},
	{"badRueidisSelect", badRueidisSelect},
	{"badRueidisSortBy", badRueidisSortBy},
	{"goodRueidisSortNoSort", goodRueidisSortNoSort},
	{"badRueidisSSubscribe", badRueidisSSubscribe},
	{"goodRueidisDbsize", goodRueidisDbsize},
	{"badRedigoSelect", badRedigoSelect},
	{"badRedigoKeys", badRedigoKeys},
	{"goodRedigoSelectZero", goodRedigoSelectZero},
	{"badKeyspaceSubscribe", badKeyspaceSubscribe},
	{"goodKeyspaceOnEachMaster", goodKeyspaceOnEachMaster},
	{"badKeyspaceConfigSet", badKeyspaceConfigSet},
	{"badScriptLoadDo", badScriptLoadDo},
	{"goodScriptLoad", goodScriptLoad},
	{"badFunctionLoad", badFunctionLoad},
	{"badRueidisScriptLoad", badRueidisScriptLoad},
	{"badRedigoScriptLoad", badRedigoScriptLoad},
	{"badLuaKeys", badLuaKeys},
	{"badLuaSelect", badLuaSelect},
	{"goodLuaSelectZero", goodLuaSelectZero},
	{"undecidedGoRedisDB", undecidedGoRedisDB},
	{"undecidedRueidisSelectDB", undecidedRueidisSelectDB},
	{"undecidedRedigoDialDatabase", undecidedRedigoDialDatabase},
	{"goodRueidisNoSelectDB", goodRueidisNoSelectDB},
}

// run runs one scenario and says how it went; a panic (rueidis's builder
// refuses channels on different slots so) is an error.
func run(ctx context.Context, e env, f func(context.Context, env) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(ctx, e)
}

func main() {
	addr := flag.String("addr", "", "a node of a Redis Cluster, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: readiness -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	e := env{rdb: redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})}
	defer e.rdb.Close()
	shards, err := e.rdb.ClusterSlots(ctx).Result()
	if err != nil || len(shards) < 2 {
		fmt.Fprintln(os.Stderr, "readiness: want a cluster of two or more masters:", err)
		os.Exit(1)
	}
	for _, s := range shards {
		e.addrs = append(e.addrs, s.Nodes[0].Addr)
	}
	e.rc = &redisc.Cluster{
		StartupNodes: []string{*addr},
		CreatePool: func(address string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return &redigo.Pool{Dial: func() (redigo.Conn, error) { return redigo.Dial("tcp", address, opts...) }}, nil
		},
	}
	defer e.rc.Close()
	if err := e.rc.Refresh(); err != nil {
		fmt.Fprintln(os.Stderr, "readiness:", err)
		os.Exit(1)
	}
	for _, s := range scenarios {
		if err := run(ctx, e, s.run); err != nil && !errors.Is(err, redis.Nil) && !rueidis.IsRedisNil(err) {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
