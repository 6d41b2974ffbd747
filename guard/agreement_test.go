package guard_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guard"
	"github.com/crossslot/crossslot/internal/guardtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// line is a corpus line as go-redis's Do takes it.
func line(tmpl string, a, b string) []interface{} {
	var args []interface{}
	for _, f := range guardtest.Line(tmpl, a, b) {
		args = append(args, f)
	}
	return args
}

func crossSlot(err error) bool {
	return errors.Is(err, redis.ErrCrossSlot) || guardtest.CrossSlot(err)
}

// TestSameVerdictAsTheCluster sends the corpus, transactions and scripts to
// a guarded client of a plain redis-server and to the cluster-enabled one:
// the guard must refuse exactly what the cluster refuses.
func TestSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	ctx := context.Background()
	guarded := redis.NewClient(&redis.Options{Addr: plainAddr, ReadTimeout: 5 * time.Second})
	guarded.AddHook(guard.New(guard.Options{}))
	cluster := redis.NewClient(&redis.Options{Addr: clusterAddr, ReadTimeout: 5 * time.Second})
	defer guarded.Close()
	defer cluster.Close()

	compare := func(what string, g, c error) {
		t.Helper()
		if crossSlot(g) != crossSlot(c) {
			t.Errorf("%s: guarded single node says %v, the cluster says %v", what, g, c)
		}
	}
	checked, refused := 0, 0
	for _, tmpl := range guardtest.Corpus {
		for _, kp := range guardtest.KeyPairs {
			args := line(tmpl, kp[0], kp[1])
			g := guarded.Do(ctx, args...).Err()
			c := cluster.Do(ctx, args...).Err()
			compare(fmt.Sprint(args...), g, c)
			checked++
			if crossSlot(c) {
				refused++
			}
		}
	}
	for _, kp := range guardtest.KeyPairs {
		tx := func(rdb *redis.Client) error {
			_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, kp[0], "1", 0)
				p.Ping(ctx)
				p.Incr(ctx, kp[1])
				return nil
			})
			return err
		}
		compare("TxPipelined SET "+kp[0]+", INCR "+kp[1], tx(guarded), tx(cluster))
		script := redis.NewScript("return #KEYS")
		compare("Script.Run "+kp[0]+" "+kp[1], script.Run(ctx, guarded, []string{kp[0], kp[1]}).Err(), script.Run(ctx, cluster, []string{kp[0], kp[1]}).Err())
		checked += 2
	}
	t.Logf("%d commands, transactions and scripts: the guarded single node and the cluster agree on each (%d refused)", checked, refused)
}

// TestSameRefusalsAsTheCluster sends what a cluster refuses besides
// CROSSSLOT (another database, SORT's patterns), with near-misses, through
// a guarded client of a plain server and through a cluster client of the
// three-master cluster: the guard refuses the same, with the cluster's own
// error text.
func TestSameRefusalsAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.ClusterAddr(t)
	ctx := context.Background()
	guarded := redis.NewClient(&redis.Options{Addr: plainAddr, ReadTimeout: 5 * time.Second})
	guarded.AddHook(guard.New(guard.Options{Target: redistest.ServerTarget(t, clusterAddr)}))
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{clusterAddr}, ReadTimeout: 5 * time.Second})
	defer guarded.Close()
	defer cluster.Close()
	for _, tmpl := range guardtest.Refusals {
		args := line(tmpl, guardtest.RefusalKeys[0], guardtest.RefusalKeys[1])
		g, c := guarded.Do(ctx, args...).Err(), cluster.Do(ctx, args...).Err()
		if errors.Is(g, redis.Nil) {
			g = nil
		}
		if errors.Is(c, redis.Nil) {
			c = nil
		}
		if !guardtest.SameRefusal(g, c) {
			t.Errorf("%s: guarded single node says %v, the cluster says %v", tmpl, g, c)
		}
	}
	// go-redis's PubSub sends SSUBSCRIBE on a connection of its own, past
	// the command hooks: the guard checks it there (see DialHook).
	for _, channels := range [][]string{{"orders", "payments"}, {"{shop}orders", "{shop}payments"}} {
		subscribe := func(rdb redis.UniversalClient) error {
			// Receive returns at the server's confirmation or error; the
			// deadline only bounds a server that never answers, generous
			// for a busy machine.
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			ps := rdb.SSubscribe(ctx, channels...)
			defer ps.Close()
			_, err := ps.Receive(ctx)
			return err
		}
		if g, c := subscribe(guarded), subscribe(cluster); crossSlot(g) != crossSlot(c) || (g == nil) != (c == nil) {
			t.Errorf("SSUBSCRIBE %v: guarded single node says %v, the cluster says %v", channels, g, c)
		}
	}
}

// TestKeyspaceSubscriptions: a subscription to keyspace notifications, which
// on a cluster receives one node's events, is reported (never refused),
// through go-redis's PubSub and as CONFIG SET; other channels are not.
func TestKeyspaceSubscriptions(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	ctx := context.Background()
	var reported []string
	rdb := redis.NewClient(&redis.Options{Addr: plainAddr})
	rdb.AddHook(guard.New(guard.Options{Caller: true, Report: func(v guard.Violation) { reported = append(reported, v.String()) }}))
	defer rdb.Close()
	for _, subscribe := range []func(context.Context, ...string) *redis.PubSub{rdb.PSubscribe, rdb.Subscribe} {
		for _, ch := range []string{"__keyevent@0__:expired", "news.*"} {
			ps := subscribe(ctx, ch)
			if _, err := ps.Receive(ctx); err != nil {
				t.Errorf("subscribing to %s: %v", ch, err)
			}
			ps.Close()
		}
	}
	if err := rdb.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err(); err != nil {
		t.Fatal(err)
	}
	rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction")
	want := []string{
		`PSUBSCRIBE "__keyevent@0__:expired" listens on one node of a cluster, and each node publishes the notifications of its own keys only`,
		`SUBSCRIBE "__keyevent@0__:expired" listens on one node of a cluster, and each node publishes the notifications of its own keys only`,
		`CONFIG SET notify-keyspace-events configures one node of a cluster: the others publish no notifications`,
	}
	if len(reported) != len(want) {
		t.Fatalf("reported %q, want %q", reported, want)
	}
	for i, r := range reported {
		if !strings.HasPrefix(r, want[i]+" at ") || !strings.Contains(r, "agreement_test.go:") {
			t.Errorf("reported %q, want %q at this file", r, want[i])
		}
	}
}

// TestStats counts a Report-mode guard's violations by problem, with the
// last call site.
func TestStats(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	ctx := context.Background()
	stats := &guard.Stats{}
	rdb := redis.NewClient(&redis.Options{Addr: plainAddr})
	rdb.AddHook(guard.New(guard.Options{Mode: guard.Report, Stats: stats}))
	defer rdb.Close()
	rdb.MGet(ctx, "user:1:a", "user:2:a")
	rdb.MGet(ctx, "user:1:a", "user:3:a")
	rdb.Sort(ctx, "{r}ids", &redis.Sort{By: "w_*"})
	rdb.Get(ctx, "user:{}:a")
	snap := stats.Snapshot()
	if snap["crossslot"].N != 2 || snap["sortpattern"].N != 1 || snap["emptytag"].N != 1 {
		t.Fatalf("stats %+v", snap)
	}
	if last := snap["crossslot"].Last; last.Keys[1] != "user:3:a" || !strings.Contains(last.Caller, "agreement_test.go:") {
		t.Errorf("last crossslot violation %+v", last)
	}
}

// TestScriptsSameVerdictAsTheCluster runs scripts that touch a key besides
// their declared one through a guarded client of a plain server, by EVAL
// and by go-redis's Script (EVALSHA first, as users run them), and on the
// three-master cluster: the guard refuses what the cluster refuses, with
// its text.
func TestScriptsSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.ClusterAddr(t)
	if err := guardtest.CheckScriptLayout(clusterAddr); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	guarded := redis.NewClient(&redis.Options{Addr: plainAddr})
	guarded.AddHook(guard.New(guard.Options{}))
	defer guarded.Close()
	guarded.ScriptFlush(ctx)
	refused := 0
	for _, s := range guardtest.Scripts {
		c := guardtest.EvalOnCluster(clusterAddr, s)
		var args []interface{}
		for _, a := range s.Args {
			args = append(args, a)
		}
		script := redis.NewScript(s.Lua)
		for how, g := range map[string]error{
			"Script.Run": script.Run(ctx, guarded, s.Keys, args...).Err(),
			"Eval":       guarded.Eval(ctx, s.Lua, s.Keys, args...).Err(),
			"EvalSha":    guarded.EvalSha(ctx, script.Hash(), s.Keys, args...).Err(),
		} {
			if errors.Is(g, redis.Nil) {
				g = nil
			}
			if !guardtest.SameScriptVerdict(g, c) {
				t.Errorf("%s (%s): guarded single node says %v, the cluster says %v", s.Name, how, g, c)
			}
		}
		if c != nil {
			refused++
		}
	}
	if refused != 4 {
		t.Errorf("the cluster refused %d scripts, want 4", refused)
	}
}
