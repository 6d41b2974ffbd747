package redigoguard_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/gomodule/redigo/redis"

	"github.com/crossslot/crossslot/guard/redigoguard"
	"github.com/crossslot/crossslot/internal/guardtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }

func dial(t *testing.T, addr string) redis.Conn {
	t.Helper()
	c, err := redis.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func args(line []string) (string, []interface{}) {
	var out []interface{}
	for _, a := range line[1:] {
		out = append(out, a)
	}
	return line[0], out
}

// TestSameVerdictAsTheCluster sends the guards' corpus, transactions (with
// Send and with Do) and scripts through a guarded connection to a plain
// redis-server and through a connection to the cluster-enabled one: the
// guard refuses exactly what the cluster refuses.
func TestSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	guarded := redigoguard.Wrap(dial(t, plainAddr), redigoguard.Options{})
	cluster := dial(t, clusterAddr)
	compare := func(what string, g, c bool) {
		t.Helper()
		if g != c {
			t.Errorf("%s: guarded single node refuses: %v, the cluster refuses: %v", what, g, c)
		}
	}
	refusedBy := func(err error) bool {
		return guardtest.CrossSlot(err) || err != nil && strings.HasPrefix(err.Error(), "EXECABORT")
	}
	checked, refused := 0, 0
	for _, tmpl := range guardtest.Corpus {
		for _, kp := range guardtest.KeyPairs {
			name, a := args(guardtest.Line(tmpl, kp[0], kp[1]))
			_, g := guarded.Do(name, a...)
			_, c := cluster.Do(name, a...)
			compare(tmpl+" "+kp[0]+" "+kp[1], refusedBy(g), refusedBy(c))
			checked++
			if refusedBy(c) {
				refused++
			}
		}
	}
	script := redis.NewScript(2, "return 2")
	for _, kp := range guardtest.KeyPairs {
		sent := func(c redis.Conn) bool {
			c.Do("UNWATCH") // the corpus's WATCH holds on the connection
			c.Send("MULTI")
			c.Send("SET", kp[0], "1")
			c.Send("PING")
			c.Send("INCR", kp[1])
			_, err := c.Do("EXEC")
			return refusedBy(err)
		}
		compare("Send MULTI SET "+kp[0]+" INCR "+kp[1]+", Do EXEC", sent(guarded), sent(cluster))
		done := func(c redis.Conn) bool {
			c.Do("UNWATCH")
			refused := false
			for _, cmd := range [][]interface{}{{"MULTI"}, {"SET", kp[0], "1"}, {"INCR", kp[1]}, {"EXEC"}} {
				_, err := c.Do(cmd[0].(string), cmd[1:]...)
				refused = refused || refusedBy(err)
			}
			return refused
		}
		compare("Do MULTI SET "+kp[0]+" INCR "+kp[1]+" EXEC", done(guarded), done(cluster))
		run := func(c redis.Conn) bool {
			_, err := script.Do(c, kp[0], kp[1])
			return refusedBy(err)
		}
		compare("Script.Do "+kp[0]+" "+kp[1], run(guarded), run(cluster))
		checked += 3
	}
	// After a refused transaction the connection is usable: nothing queued.
	if _, err := redis.String(guarded.Do("PING")); err != nil {
		t.Errorf("PING after the transactions: %v", err)
	}
	t.Logf("%d commands, transactions and scripts: the guarded single node and the cluster agree on each (%d refused)", checked, refused)
}

// TestDialGuardsAPool: a pool whose Dial is guarded refuses a cross-slot
// MGET in Fail mode, with the guards' message.
func TestDialGuardsAPool(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	pool := &redis.Pool{Dial: redigoguard.Dial(redigoguard.Options{}, func() (redis.Conn, error) {
		return redis.Dial("tcp", plainAddr)
	})}
	defer pool.Close()
	c := pool.Get()
	defer c.Close()
	_, err := c.Do("MGET", "user:1:a", "user:2:a")
	want := `CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))`
	if err == nil || err.Error() != want {
		t.Fatalf("MGET: %v, want %s", err, want)
	}
}

// TestCallerThroughAPool: through a Pool, whose frames are redigo's in the
// module cache (".../redigo@v1.9.3/redis/pool.go"), the reported call site
// is the caller's line.
func TestCallerThroughAPool(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	pool := &redis.Pool{Dial: redigoguard.Dial(redigoguard.Options{Caller: true}, func() (redis.Conn, error) {
		return redis.Dial("tcp", plainAddr)
	})}
	defer pool.Close()
	c := pool.Get()
	defer c.Close()
	_, err := c.Do("MGET", "user:1:a", "user:2:a") // through the pool
	if err == nil || !strings.HasSuffix(err.Error(), fmt.Sprintf(" at %s:%d)", thisTestFile(), lineOf(t, `_, err := c.Do("MGET", "user:1:a", "user:2:a") // through the pool`))) {
		t.Errorf("MGET through a pool: %v, want its call site in this file", err)
	}
}

// TestExecAbortNamesTheRefusal: EXEC after a refused Send fails as the
// server's EXECABORT, naming the refused command, its keys and its line.
func TestExecAbortNamesTheRefusal(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	raw, err := redis.Dial("tcp", plainAddr)
	if err != nil {
		t.Fatal(err)
	}
	c := redigoguard.Wrap(raw, redigoguard.Options{Caller: true})
	defer c.Close()
	c.Send("MULTI")
	c.Send("INCR", "visits:1")
	c.Send("INCR", "visits:2") // refused
	_, err = c.Do("EXEC")
	var abort *redigoguard.AbortError
	want := fmt.Sprintf(`EXECABORT Transaction discarded because of previous errors (crossslot guard: MULTI/EXEC keys "visits:1" (slot 5949, INCR) and "visits:2" (slot 10078, INCR) at %s:%d)`,
		thisTestFile(), lineOf(t, `c.Send("INCR", "visits:2") // refused`))
	if !errors.As(err, &abort) || err.Error() != want {
		t.Errorf("EXEC: %v\nwant %s", err, want)
	}
	if _, err := c.Do("PING"); err != nil {
		t.Errorf("PING after the discarded transaction: %v", err)
	}
}

// thisTestFile is this file's path, as the runtime reports it.
func thisTestFile() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}

// lineOf is the line of this file that holds code.
func lineOf(t *testing.T, code string) int {
	t.Helper()
	b, err := os.ReadFile(thisTestFile())
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == code {
			return i + 1
		}
	}
	t.Fatalf("no line %q", code)
	return 0
}

// noop is a connection that answers every command at once, without a
// server: the guard's own cost, and its allocations, show against it.
type noop struct{ redis.Conn }

func (noop) Do(string, ...interface{}) (interface{}, error) { return nil, nil }

// TestNoAllocationOnSingleKeyCommands: a single-key command through the
// guard allocates nothing more than without it.
func TestNoAllocationOnSingleKeyCommands(t *testing.T) {
	plain := opaque(noop{}) // called through the interface, as the guarded one is
	guarded := redigoguard.Wrap(plain, redigoguard.Options{})
	base := testing.AllocsPerRun(100, func() { plain.Do("GET", "user:1") })
	with := testing.AllocsPerRun(100, func() { guarded.Do("GET", "user:1") })
	if with > base {
		t.Errorf("%v allocations per single-key command with the guard, %v without", with, base)
	}
}

// BenchmarkGuard compares a GET and an MGET of two keys on one slot through
// the guard and without it, on a connection that answers at once (noop) and
// on a loopback redis-server (with CROSSSLOT_REDIS_PLAIN_ADDR):
//
//	go test -run '^$' -bench Guard -count 8 | benchstat -col /impl -
func BenchmarkGuard(b *testing.B) {
	conns := map[string]redis.Conn{"noop": noop{}}
	if addr := os.Getenv(redistest.PlainAddrEnv); addr != "" {
		c, err := redis.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns["loopback"] = c
	}
	for _, server := range []string{"noop", "loopback"} {
		c, ok := conns[server]
		if !ok {
			continue
		}
		for _, impl := range []string{"plain", "guard"} {
			conn := c
			if impl == "guard" {
				conn = redigoguard.Wrap(c, redigoguard.Options{})
			}
			b.Run("server="+server+"/cmd=GET/impl="+impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					conn.Do("GET", "user:1")
				}
			})
			b.Run("server="+server+"/cmd=MGET/impl="+impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					conn.Do("MGET", "{user:1}:a", "{user:1}:b")
				}
			})
		}
	}
}

// opaque hides a connection's type from the compiler, which would otherwise
// call its methods directly and keep their variadic arguments on the stack.
//
//go:noinline
func opaque(c redis.Conn) redis.Conn { return c }

// TestSameRefusalsAsTheCluster sends what a cluster refuses besides
// CROSSSLOT (another database, SORT's patterns, sharded channels on two
// slots), with near-misses, through a guarded connection to a plain server
// and to the cluster-enabled one: the guard refuses the same, with the
// cluster's own error text.
func TestSameRefusalsAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	target := redistest.ServerTarget(t, clusterAddr)
	for _, tmpl := range guardtest.Refusals {
		guarded := redigoguard.Wrap(dial(t, plainAddr), redigoguard.Options{Target: target})
		cluster := dial(t, clusterAddr)
		name, a := args(guardtest.Line(tmpl, guardtest.RefusalKeys[0], guardtest.RefusalKeys[1]))
		_, g := guarded.Do(name, a...)
		_, c := cluster.Do(name, a...)
		if !guardtest.SameRefusal(g, c) {
			t.Errorf("%s: guarded single node says %v, the cluster says %v", tmpl, g, c)
		}
	}
	for _, channels := range [][]interface{}{{"orders", "payments"}, {"{shop}orders", "{shop}payments"}} {
		subscribe := func(c redis.Conn) error {
			if err := c.Send("SSUBSCRIBE", channels...); err != nil {
				return err
			}
			if err := c.Flush(); err != nil {
				return err
			}
			reply, err := c.Receive()
			if err == nil {
				if e, ok := reply.(redis.Error); ok {
					err = e
				}
			}
			return err
		}
		g := subscribe(redigoguard.Wrap(dial(t, plainAddr), redigoguard.Options{}))
		c := subscribe(dial(t, clusterAddr))
		if guardtest.CrossSlot(g) != guardtest.CrossSlot(c) {
			t.Errorf("SSUBSCRIBE %v: guarded single node says %v, the cluster says %v", channels, g, c)
		}
	}
}

// TestScriptsSameVerdictAsTheCluster runs scripts that touch a key besides
// their declared one through a guarded connection to a plain server, by
// EVAL and by redigo's Script (EVALSHA first), and on the three-master
// cluster: the guard refuses what the cluster refuses.
func TestScriptsSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.ClusterAddr(t)
	if err := guardtest.CheckScriptLayout(clusterAddr); err != nil {
		t.Fatal(err)
	}
	raw, err := redis.Dial("tcp", plainAddr)
	if err != nil {
		t.Fatal(err)
	}
	guarded := redigoguard.Wrap(raw, redigoguard.Options{})
	defer guarded.Close()
	guarded.Do("SCRIPT", "FLUSH")
	for _, s := range guardtest.Scripts {
		c := guardtest.EvalOnCluster(clusterAddr, s)
		var keysAndArgs []interface{}
		for _, a := range append(append([]string{}, s.Keys...), s.Args...) {
			keysAndArgs = append(keysAndArgs, a)
		}
		_, viaScript := redis.NewScript(len(s.Keys), s.Lua).Do(guarded, keysAndArgs...)
		_, viaEval := guarded.Do("EVAL", append([]interface{}{s.Lua, len(s.Keys)}, keysAndArgs...)...)
		for how, g := range map[string]error{"Script.Do": viaScript, "EVAL": viaEval} {
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
	raw, err := redis.Dial("tcp", plainAddr)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	psc := redis.PubSubConn{Conn: redigoguard.Wrap(raw, redigoguard.Options{Report: func(v redigoguard.Violation) { got = append(got, v.Problem+" "+v.Keys[0]) }})}
	defer psc.Close()
	for _, ch := range []string{"__keyevent@0__:expired", "news.*"} {
		if err := psc.PSubscribe(ch); err != nil {
			t.Errorf("PSUBSCRIBE %s: %v", ch, err)
		}
	}
	if want := "keyspace __keyevent@0__:expired"; len(got) != 1 || got[0] != want {
		t.Errorf("reported %q, want %q", got, want)
	}
}
