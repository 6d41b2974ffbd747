package guard_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guard"
	"github.com/crossslot/crossslot/internal/redistest"
)

// sent records what reaches the next hook.
type sent struct{ cmds []string }

func (s *sent) process(ctx context.Context, cmd redis.Cmder) error {
	s.cmds = append(s.cmds, cmd.Name())
	return nil
}

func (s *sent) pipeline(ctx context.Context, cmds []redis.Cmder) error {
	for _, c := range cmds {
		s.cmds = append(s.cmds, c.Name())
	}
	return nil
}

func TestFailMode(t *testing.T) {
	ctx := context.Background()
	var s sent
	var reported []guard.Violation
	h := guard.New(guard.Options{Report: func(v guard.Violation) { reported = append(reported, v) }})
	process := h.ProcessHook(s.process)

	for _, tc := range []struct {
		args []interface{}
		want string // the error's suffix, "" for none
	}{
		{[]interface{}{"mget", "user:1:a", "user:2:a"}, `MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))`},
		{[]interface{}{"mget", "user:{1}:a", "user:{1}:b"}, ""},
		{[]interface{}{"get", "user:1:a"}, ""},
		{[]interface{}{"eval", "return 1", 2, "k1", "k2"}, `EVAL keys "k1" (slot 12706) and "k2" (slot 449))`},
		{[]interface{}{"eval", "return 1", 1, "k1", "k2"}, ""},
		{[]interface{}{"zunionstore", "out", int64(2), "z:{a}", "z:{a}2"}, `ZUNIONSTORE keys "out" (slot 16101) and "z:{a}" (slot 15495))`},
		{[]interface{}{"xread", "count", 1, "streams", "s1", "s2", "0", "0"}, `XREAD keys "s1" (slot 15224) and "s2" (slot 2843))`},
		{[]interface{}{"mset", "", "x", "a", "y"}, `MSET keys "" (slot 0) and "a" (slot 15495))`},
		{[]interface{}{"ping"}, ""},
	} {
		s.cmds = nil
		cmd := redis.NewCmd(ctx, tc.args...)
		err := process(ctx, cmd)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v, want it sent", tc.args, err)
		case tc.want == "" && len(s.cmds) != 1:
			t.Errorf("%v: not sent", tc.args)
		case tc.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.want) || len(s.cmds) != 0):
			t.Errorf("%v: error %v, sent %v; want an error ending %q and nothing sent", tc.args, err, s.cmds, tc.want)
		case tc.want != "" && (!strings.HasPrefix(err.Error(), "CROSSSLOT Keys in request don't hash to the same slot") || !errors.Is(err, redis.ErrCrossSlot) || cmd.Err() != err):
			t.Errorf("%v: error %v does not read and match like the server's, or is not the command's", tc.args, err)
		}
	}
	process(ctx, redis.NewCmd(ctx, "get", "user:{}:a"))
	process(ctx, redis.NewCmd(ctx, "set", "user:{1", "x"))
	process(ctx, redis.NewCmd(ctx, "get", "lock:{cart:{alice}:items}"))
	process(ctx, redis.NewCmd(ctx, "get", "user:{1}:{profile}"))
	// Near-misses: one tag, braces after an empty pair, a lone '}'.
	process(ctx, redis.NewCmd(ctx, "get", "user:{1}:profile"))
	process(ctx, redis.NewCmd(ctx, "get", "user:{1}:{}"))
	process(ctx, redis.NewCmd(ctx, "get", "user:}1{"))
	var problems []string
	for _, v := range reported {
		problems = append(problems, v.Problem+" "+v.Keys[0])
	}
	if want := []string{"emptytag user:{}:a", "unclosedtag user:{1", "doubletag lock:{cart:{alice}:items}", "doubletag user:{1}:{profile}", "unclosedtag user:}1{"}; strings.Join(problems, ", ") != strings.Join(want, ", ") {
		t.Errorf("malformed tags reported as %v, want %v", problems, want)
	}
}

func TestReportModeAndSampling(t *testing.T) {
	ctx := context.Background()
	var s sent
	var reported []guard.Violation
	h := guard.New(guard.Options{Mode: guard.Report, Caller: true, Report: func(v guard.Violation) { reported = append(reported, v) }})
	if err := h.ProcessHook(s.process)(ctx, redis.NewCmd(ctx, "mget", "a", "b")); err != nil || len(s.cmds) != 1 {
		t.Fatalf("report mode: %v, sent %v; want it sent", err, s.cmds)
	}
	if len(reported) != 1 || reported[0].Command != "MGET" || !strings.HasSuffix(strings.Split(reported[0].Caller, ":")[0], "guard_test.go") {
		t.Errorf("reported %+v, want the MGET from this file", reported)
	}
	reported = nil
	sampled := guard.New(guard.Options{Mode: guard.Report, SampleRatio: 0.1, Report: func(v guard.Violation) { reported = append(reported, v) }})
	p := sampled.ProcessHook(s.process)
	for range 10000 {
		p(ctx, redis.NewCmd(ctx, "mget", "a", "b"))
	}
	if n := len(reported); n < 800 || n > 1200 {
		t.Errorf("sample ratio 0.1: %d of 10000 reported", n)
	}
}

func TestTransactionsAndPipelines(t *testing.T) {
	ctx := context.Background()
	var s sent
	h := guard.New(guard.Options{})
	pipe := h.ProcessPipelineHook(s.pipeline)
	tx := func(cmds ...redis.Cmder) []redis.Cmder {
		return append(append([]redis.Cmder{redis.NewStatusCmd(ctx, "multi")}, cmds...), redis.NewSliceCmd(ctx, "exec"))
	}
	cross := tx(redis.NewCmd(ctx, "incr", "user:1:visits"), redis.NewCmd(ctx, "incr", "user:2:visits"))
	err := pipe(ctx, cross)
	if err == nil || !strings.Contains(err.Error(), `MULTI/EXEC keys "user:1:visits" (slot 6646, INCR) and "user:2:visits" (slot 4483, INCR)`) || len(s.cmds) != 0 {
		t.Errorf("cross-slot transaction: %v, sent %v", err, s.cmds)
	}
	for _, c := range cross {
		if c.Err() != err {
			t.Errorf("%s: error %v, want the transaction's", c.Name(), c.Err())
		}
	}
	if err := pipe(ctx, tx(redis.NewCmd(ctx, "incr", "{u}1"), redis.NewCmd(ctx, "ping"), redis.NewCmd(ctx, "incr", "{u}2"))); err != nil {
		t.Errorf("one-slot transaction: %v", err)
	}
	// A plain pipeline is split per node by the client: commands apart.
	s.cmds = nil
	if err := pipe(ctx, []redis.Cmder{redis.NewCmd(ctx, "incr", "a"), redis.NewCmd(ctx, "incr", "b")}); err != nil || len(s.cmds) != 2 {
		t.Errorf("plain pipeline: %v, sent %v", err, s.cmds)
	}
	if err := pipe(ctx, []redis.Cmder{redis.NewCmd(ctx, "mget", "a", "b")}); err == nil {
		t.Error("a cross-slot command in a plain pipeline was sent")
	}
}

// TestNoAllocationOnSingleKeyCommands: the common path allocates nothing.
func TestNoAllocationOnSingleKeyCommands(t *testing.T) {
	ctx := context.Background()
	process := guard.New(guard.Options{}).ProcessHook(func(context.Context, redis.Cmder) error { return nil })
	get := redis.NewStringCmd(ctx, "get", "user:{1}:profile")
	set := redis.NewStatusCmd(ctx, "set", "user:1:profile", "x")
	if n := testing.AllocsPerRun(1000, func() { process(ctx, get); process(ctx, set) }); n != 0 {
		t.Errorf("%v allocations per single-key command, want 0", n)
	}
}

// TestDatabaseOption: a client whose options select a database fails on
// its first command, as on a cluster, with an error that names the option.
func TestDatabaseOption(t *testing.T) {
	plainAddr := redistest.PlainAddr(t)
	rdb := redis.NewClient(&redis.Options{Addr: plainAddr, DB: 4})
	rdb.AddHook(guard.New(guard.Options{}))
	defer rdb.Close()
	err := rdb.Get(context.Background(), "a").Err()
	want := "ERR SELECT is not allowed in cluster mode (crossslot guard: SELECT 4 (the client's Options.DB, sent on every new connection: a cluster client has no DB option))"
	if err == nil || err.Error() != want {
		t.Errorf("GET with DB: 4: %v\nwant %s", err, want)
	}
	// SELECT sent by the caller is the caller's.
	plain := redis.NewClient(&redis.Options{Addr: plainAddr})
	plain.AddHook(guard.New(guard.Options{}))
	defer plain.Close()
	if err := plain.Do(context.Background(), "SELECT", 4).Err(); err == nil || strings.Contains(err.Error(), "Options.DB") {
		t.Errorf("SELECT 4 sent by the caller: %v", err)
	}
}

// TestTarget: the guard judges what a cluster refuses by Options.Target,
// else by the crossslot.conf nearest to the working directory, else by the
// newest releases' rules; a bad target fails every command with an error
// that says so.
func TestTarget(t *testing.T) {
	ctx := context.Background()
	errOf := func(opts guard.Options, args ...interface{}) error {
		var s sent
		return guard.New(opts).ProcessHook(s.process)(ctx, redis.NewCmd(ctx, args...))
	}
	tagged := []interface{}{"sort", "{r}ids", "by", "{r}w_*", "get", "#"}
	if err := errOf(guard.Options{}, tagged...); err != nil {
		t.Errorf("default target: %v; want a pattern on the key's slot accepted", err)
	}
	if err := errOf(guard.Options{Target: "redis:7.0"}, tagged...); err == nil || !strings.Contains(err.Error(), "BY option of SORT denied in Cluster mode.") {
		t.Errorf("redis:7.0: %v; want Redis 7.0's refusal of every BY pattern", err)
	}
	if err := errOf(guard.Options{Target: "valkey:8.0"}, tagged...); err == nil || !strings.Contains(err.Error(), "GET option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.") {
		t.Errorf("valkey:8.0: %v; want GET # refused (hashed as a key name before Valkey 8.1)", err)
	}
	if err := errOf(guard.Options{}, "sort", "{r}ids", "by", "{x}w_*"); err == nil {
		t.Error("default target: a pattern on another slot accepted")
	}
	if err := errOf(guard.Options{Target: "valkey:9.0:db16"}, "select", "15"); err != nil {
		t.Errorf("valkey:9.0:db16: SELECT 15: %v", err)
	}
	if err := errOf(guard.Options{Target: "valkey:9.0:db16"}, "select", "16"); err == nil {
		t.Error("valkey:9.0:db16: SELECT 16 accepted")
	}
	if err := errOf(guard.Options{Target: "redis:7.3"}, "get", "k"); err == nil || !strings.Contains(err.Error(), "Options.Target") {
		t.Errorf("a bad target: %v; want every command to fail naming Options.Target", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crossslot.conf"), []byte(`target = "redis:7.0"`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := errOf(guard.Options{}, tagged...); err == nil {
		t.Error("crossslot.conf's redis:7.0: the tagged pattern accepted")
	}
	if err := errOf(guard.Options{Target: "latest"}, tagged...); err != nil {
		t.Errorf("a given target over crossslot.conf: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crossslot.conf"), []byte(`target = "redis:9"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := errOf(guard.Options{}, "get", "k"); err == nil || !strings.Contains(err.Error(), "crossslot.conf") {
		t.Errorf("a bad crossslot.conf: %v; want every command to fail naming the file", err)
	}
}

// TestProxyTarget: behind a proxy that splits DEL, EXISTS, MGET, MSET,
// TOUCH and UNLINK by slot, those pass across slots outside a transaction;
// inside one, and every other multi-key command, still fail.
func TestProxyTarget(t *testing.T) {
	ctx := context.Background()
	var s sent
	h := guard.New(guard.Options{Target: "azure-enterprise"})
	process, pipeline := h.ProcessHook(s.process), h.ProcessPipelineHook(s.pipeline)
	if err := process(ctx, redis.NewCmd(ctx, "mget", "user:1:a", "user:2:a")); err != nil {
		t.Errorf("MGET across slots behind the proxy: %v", err)
	}
	if err := process(ctx, redis.NewCmd(ctx, "del", "user:1:a", "user:2:a")); err != nil {
		t.Errorf("DEL across slots behind the proxy: %v", err)
	}
	if err := process(ctx, redis.NewCmd(ctx, "sunionstore", "out", "set:1", "set:2")); err == nil {
		t.Error("SUNIONSTORE across slots behind the proxy: accepted")
	}
	tx := []redis.Cmder{redis.NewCmd(ctx, "multi"), redis.NewCmd(ctx, "mget", "user:1:a", "user:2:a"), redis.NewCmd(ctx, "exec")}
	if err := pipeline(ctx, tx); err == nil {
		t.Error("MGET across slots in a transaction behind the proxy: accepted")
	}
}
