package rueidisguard_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/crossslot/crossslot/guard/rueidisguard"
	"github.com/crossslot/crossslot/internal/guardtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }

func single(t *testing.T, addr string) rueidis.Client {
	t.Helper()
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// anyCrossSlot says whether any result of a batch is a CROSSSLOT error.
func anyCrossSlot(rs []rueidis.RedisResult) bool {
	for _, r := range rs {
		if guardtest.CrossSlot(r.Error()) {
			return true
		}
	}
	return false
}

// TestSameVerdictAsTheCluster sends the guards' corpus, transactions (a
// DoMulti of MULTI ... EXEC, and one on a dedicated client command by
// command) and Lua scripts to a guarded client of a plain redis-server and
// to the cluster-enabled one: the guard refuses exactly what the cluster
// refuses.
func TestSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	ctx := context.Background()
	guarded := rueidisguard.New(single(t, plainAddr), rueidisguard.Options{Target: redistest.ServerTarget(t, clusterAddr)})
	cluster := single(t, clusterAddr)
	compare := func(what string, g, c bool) {
		t.Helper()
		if g != c {
			t.Errorf("%s: guarded single node refuses: %v, the cluster refuses: %v", what, g, c)
		}
	}
	checked, refused := 0, 0
	for _, tmpl := range guardtest.Corpus {
		for _, kp := range guardtest.KeyPairs {
			line := guardtest.Line(tmpl, kp[0], kp[1])
			g := guarded.Do(ctx, guarded.B().Arbitrary(line...).Build()).Error()
			c := cluster.Do(ctx, cluster.B().Arbitrary(line...).Build()).Error()
			compare(strings.Join(line, " "), guardtest.CrossSlot(g), guardtest.CrossSlot(c))
			checked++
			if guardtest.CrossSlot(c) {
				refused++
			}
		}
	}
	script := rueidis.NewLuaScript("return #KEYS")
	for _, kp := range guardtest.KeyPairs {
		tx := func(c rueidis.Client) bool {
			// The corpus's WATCH {t}a {t}b holds on the connection: a
			// watched key changed since makes EXEC abort before the slot check.
			c.Do(ctx, c.B().Unwatch().Build())
			return anyCrossSlot(c.DoMulti(ctx,
				c.B().Multi().Build(),
				c.B().Set().Key(kp[0]).Value("1").Build(),
				c.B().Ping().Build(),
				c.B().Incr().Key(kp[1]).Build(),
				c.B().Exec().Build(),
			))
		}
		compare("DoMulti MULTI SET "+kp[0]+" INCR "+kp[1], tx(guarded), tx(cluster))
		dedicated := func(c rueidis.Client) bool {
			refused := false
			c.Dedicated(func(d rueidis.DedicatedClient) error {
				for _, cmd := range []rueidis.Completed{
					d.B().Multi().Build(), d.B().Set().Key(kp[0]).Value("1").Build(),
					d.B().Incr().Key(kp[1]).Build(), d.B().Exec().Build(),
				} {
					refused = refused || guardtest.CrossSlot(d.Do(ctx, cmd).Error())
				}
				return nil
			})
			return refused
		}
		compare("Dedicated MULTI SET "+kp[0]+" INCR "+kp[1], dedicated(guarded), dedicated(cluster))
		lua := func(c rueidis.Client) bool {
			return guardtest.CrossSlot(script.Exec(ctx, c, []string{kp[0], kp[1]}, nil).Error())
		}
		compare("Lua.Exec "+kp[0]+" "+kp[1], lua(guarded), lua(cluster))
		checked += 3
	}
	t.Logf("%d commands, transactions and scripts: the guarded single node and the cluster agree on each (%d refused)", checked, refused)
}

// TestReportMode sends a cross-slot MGET through a Report-mode guard: it
// reaches the server, and the violation the report.
func TestReportMode(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	var got []rueidisguard.Violation
	c := rueidisguard.New(single(t, plainAddr), rueidisguard.Options{Mode: rueidisguard.Report, Caller: true,
		Report: func(v rueidisguard.Violation) { got = append(got, v) }})
	err := c.Do(context.Background(), c.B().Mget().Key("user:1:a", "user:2:a").Build()).Error()
	if err != nil {
		t.Fatalf("Report mode failed the command: %v", err)
	}
	if len(got) != 1 || got[0].Problem != "crossslot" || !strings.Contains(got[0].Caller, "rueidisguard_test.go:") {
		t.Fatalf("reported %+v", got)
	}
	if want := `MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) at `; !strings.HasPrefix(got[0].String(), want) {
		t.Errorf("violation %q, want it to start %q", got[0].String(), want)
	}
}

// noop is a client that answers every command at once, without sending
// it: the guard's own cost, and its allocations, show against it. Its
// builder is a single-node client's (rueidis exports no other).
type noop struct{ rueidis.Client }

func (noop) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	return rueidis.RedisResult{}
}

// TestNoAllocationOnSingleKeyCommands: a single-key command through the
// guard allocates nothing more than without it.
func TestNoAllocationOnSingleKeyCommands(t *testing.T) {
	ctx := context.Background()
	plain := noop{single(t, redistest.PlainAddr(t))}
	guarded := rueidisguard.New(plain, rueidisguard.Options{})
	cmd := plain.B().Get().Key("user:1").Build().Pin()
	base := testing.AllocsPerRun(100, func() { plain.Do(ctx, cmd) })
	with := testing.AllocsPerRun(100, func() { guarded.Do(ctx, cmd) })
	if with > base {
		t.Errorf("%v allocations per single-key command with the guard, %v without", with, base)
	}
}

// BenchmarkGuard compares a GET and an MGET of two keys on one slot through
// the guard and without it, on a client that answers at once (noop) and on
// a loopback redis-server (live, with CROSSSLOT_REDIS_PLAIN_ADDR):
//
//	go test -run '^$' -bench Guard -count 8 | benchstat -col /impl -
func BenchmarkGuard(b *testing.B) {
	ctx := context.Background()
	addr := os.Getenv(redistest.PlainAddrEnv)
	if addr == "" {
		b.Skip(redistest.PlainAddrEnv + " is not set: the builder needs a client")
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	clients := map[string]rueidis.Client{"noop": noop{c}, "loopback": c}
	for _, server := range []string{"noop", "loopback"} {
		c, ok := clients[server]
		if !ok {
			continue
		}
		for _, impl := range []string{"plain", "guard"} {
			client := c
			if impl == "guard" {
				client = rueidisguard.New(c, rueidisguard.Options{})
			}
			get := client.B().Get().Key("user:1").Build().Pin()
			mget := client.B().Mget().Key("{user:1}:a", "{user:1}:b").Build().Pin()
			b.Run("server="+server+"/cmd=GET/impl="+impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					client.Do(ctx, get)
				}
			})
			b.Run("server="+server+"/cmd=MGET/impl="+impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					client.Do(ctx, mget)
				}
			})
		}
	}
}

// TestSameRefusalsAsTheCluster sends what a cluster refuses besides
// CROSSSLOT (another database, SORT's patterns, sharded channels on two
// slots), with near-misses, through a guarded client of a plain server and
// to the cluster-enabled one: the guard refuses the same, with the
// cluster's own error text.
func TestSameRefusalsAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	ctx := context.Background()
	guarded := rueidisguard.New(single(t, plainAddr), rueidisguard.Options{Target: redistest.ServerTarget(t, clusterAddr)})
	cluster := single(t, clusterAddr)
	errOf := func(r rueidis.RedisResult) error {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
		return nil
	}
	for _, tmpl := range guardtest.Refusals {
		line := guardtest.Line(tmpl, guardtest.RefusalKeys[0], guardtest.RefusalKeys[1])
		g := errOf(guarded.Do(ctx, guarded.B().Arbitrary(line...).Build()))
		c := errOf(cluster.Do(ctx, cluster.B().Arbitrary(line...).Build()))
		if !guardtest.SameRefusal(g, c) {
			t.Errorf("%s: guarded single node says %v, the cluster says %v", tmpl, g, c)
		}
	}
	for _, channels := range [][]string{{"orders", "payments"}, {"{shop}orders", "{shop}payments"}} {
		subscribe := func(c rueidis.Client) error {
			return confirmed(ctx, "ssubscribe", func(ctx context.Context) error {
				return c.Receive(ctx, c.B().Ssubscribe().Channel(channels...).Build(), func(rueidis.PubSubMessage) {})
			})
		}
		if g, c := subscribe(guarded), subscribe(cluster); guardtest.CrossSlot(g) != guardtest.CrossSlot(c) {
			t.Errorf("SSUBSCRIBE %v: guarded single node says %v, the cluster says %v", channels, g, c)
		}
	}
}

// TestScriptsSameVerdictAsTheCluster runs scripts that touch a key besides
// their declared one through the guarded client of a plain server, by EVAL
// and by the client's Lua script (EVALSHA first), and on the three-master
// cluster: the guard refuses what the cluster refuses.
func TestScriptsSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.ClusterAddr(t)
	if err := guardtest.CheckScriptLayout(clusterAddr); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	guarded := rueidisguard.New(single(t, plainAddr), rueidisguard.Options{Target: redistest.ServerTarget(t, clusterAddr)})
	guarded.Do(ctx, guarded.B().ScriptFlush().Build())
	for _, s := range guardtest.Scripts {
		c := guardtest.EvalOnCluster(clusterAddr, s)
		errOf := func(err error) error {
			if rueidis.IsRedisNil(err) {
				return nil
			}
			return err
		}
		for how, g := range map[string]error{
			"Lua.Exec": errOf(rueidis.NewLuaScript(s.Lua).Exec(ctx, guarded, s.Keys, s.Args).Error()),
			"EVAL":     errOf(guarded.Do(ctx, guarded.B().Eval().Script(s.Lua).Numkeys(int64(len(s.Keys))).Key(s.Keys...).Arg(s.Args...).Build()).Error()),
		} {
			if !guardtest.SameScriptVerdict(g, c) {
				t.Errorf("%s (%s): guarded single node says %v, the cluster says %v", s.Name, how, g, c)
			}
		}
	}
}

// TestKeyspaceSubscriptions: a subscription to keyspace notifications is
// reported (on a cluster it receives one node's events), never refused;
// another pattern is not.
func TestKeyspaceSubscriptions(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	var got []string
	c := rueidisguard.New(single(t, plainAddr), rueidisguard.Options{Report: func(v rueidisguard.Violation) { got = append(got, v.Problem+" "+v.Keys[0]) }})
	for _, ch := range []string{"__keyevent@0__:expired", "news.*"} {
		err := confirmed(context.Background(), "psubscribe", func(ctx context.Context) error {
			return c.Receive(ctx, c.B().Psubscribe().Pattern(ch).Build(), func(rueidis.PubSubMessage) {})
		})
		if err != nil {
			t.Errorf("PSUBSCRIBE %s: %v, want it subscribed", ch, err)
		}
	}
	if want := "keyspace __keyevent@0__:expired"; len(got) != 1 || got[0] != want {
		t.Errorf("reported %q, want %q", got, want)
	}
}

// confirmed runs a subscription until the server confirms it (kind:
// "ssubscribe", "psubscribe"), and returns nil then, or the error that ends
// it first. It waits for the event, not for a duration, so that a busy
// machine cannot turn a slow confirmation into a refusal; the deadline only
// bounds a server that never answers.
func confirmed(ctx context.Context, kind string, receive func(context.Context) error) error {
	const bound = 30 * time.Second
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var ok atomic.Bool
	ctx = rueidis.WithOnSubscriptionHook(ctx, func(s rueidis.PubSubSubscription) {
		if s.Kind == kind {
			ok.Store(true)
			cancel()
		}
	})
	err := receive(ctx)
	switch {
	case ok.Load():
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no %s confirmation and no error in %s (a very busy machine, or a server that does not answer)", kind, bound)
	}
	return err
}
