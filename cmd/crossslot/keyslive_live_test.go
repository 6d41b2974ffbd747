package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// liveKeysDir is a shop service whose seeder writes keys through the
// service's own code paths, with keys under old names and other services'
// keys beside them, and measures the ground truth on the server.
const liveKeysDir = "../../testdata/livekeys"

// seedTruth is the seeder's ground truth (testdata/livekeys/README.md).
type seedTruth struct {
	Total   int64 `json:"total"`
	Masters []struct {
		Addr  string `json:"addr"`
		Slots string `json:"slots"`
		Keys  int64  `json:"keys"`
	} `json:"masters"`
	Families map[string]struct {
		Keys        int64            `json:"keys"`
		TTLLess     int64            `json:"ttl_less"`
		Bytes       int64            `json:"bytes"`
		Slots       int              `json:"slots"`
		Nodes       int              `json:"nodes"`
		TopSlot     int              `json:"top_slot"`
		TopSlotKeys int64            `json:"top_slot_keys"`
		TopSlotTies int              `json:"top_slot_ties"`
		Types       map[string]int64 `json:"types"`
	} `json:"families"`
	Old map[string]struct {
		Keys  int64  `json:"keys"`
		Bytes int64  `json:"bytes"`
		Slots int    `json:"slots"`
		Nodes int    `json:"nodes"`
		New   string `json:"new"`
	} `json:"old"`
	Foreign struct {
		Keys     int64            `json:"keys"`
		Bytes    int64            `json:"bytes"`
		Prefixes map[string]int64 `json:"prefixes"`
	} `json:"foreign"`
	Slots map[string]int64 `json:"slots"`
}

// seedLive runs the seeder against the server at addr (a cluster's node,
// or with plain a standalone server) and reads its ground truth.
func seedLive(t *testing.T, addr string, plain bool) seedTruth {
	t.Helper()
	out := filepath.Join(t.TempDir(), "truth.json")
	args := []string{"run", "./cmd/seed", "-addr", addr, "-out", out}
	if plain {
		args = append(args, "-plain")
	}
	_, stderr, code := cmdtest.Run(t, liveKeysDir, fixtureEnv(), "go", args...)
	if code != 0 {
		t.Fatalf("seeding %s: exit %d\n%s", addr, code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var truth seedTruth
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	return truth
}

// keysLive runs crossslot keys -live -f json on the service and reads its
// report.
func keysLive(t *testing.T, url string, flags ...string) (keysReport, string, int) {
	t.Helper()
	args := append([]string{"keys", "-f", "json", "-live", url}, flags...)
	stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, append(args, "./shop")...)
	var r keysReport
	if stdout != "" {
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("crossslot %s: %v\n%s\n%s", strings.Join(args, " "), err, stdout, stderr)
		}
	}
	return r, stderr, code
}

// checkExact compares every figure of an exact live report with the truth:
// counts, bytes (every key measured), TTL-less keys, types, slots and
// nodes, top slots, old names, foreign keys and prefixes, the slots' keys
// and the nodes'.
func checkExact(t *testing.T, r keysReport, truth seedTruth) {
	t.Helper()
	lr := r.Live
	if lr == nil || !lr.Exact || lr.Keys != truth.Total || lr.Read != truth.Total {
		t.Fatalf("live report %+v, want every one of %d keys read", lr, truth.Total)
	}
	seen := 0
	for _, f := range r.Families {
		want, ok := truth.Families[f.Template]
		if !ok {
			continue
		}
		seen++
		l := f.Live
		if l == nil {
			t.Errorf("%s: no live figures", f.Template)
			continue
		}
		noTTL := int64(math.Round(l.NoTTL * float64(l.Measured)))
		var onNodes, nodes int64
		for _, n := range l.NodeKeys {
			onNodes += n
			if n > 0 {
				nodes++
			}
		}
		if onNodes != l.Keys || nodes != int64(want.Nodes) || len(l.NodeKeys) != len(truth.Masters) {
			t.Errorf("%s: keys on each node %v, %d keys on %d nodes written", f.Template, l.NodeKeys, want.Keys, want.Nodes)
		}
		if l.Keys != want.Keys || l.KeysError != 0 || l.Bytes == nil || *l.Bytes != want.Bytes || l.BytesError != 0 ||
			l.Measured != int(want.Keys) || noTTL != want.TTLLess || l.Slots != want.Slots || l.Nodes != want.Nodes ||
			l.TopSlotKeys != want.TopSlotKeys || want.TopSlotTies == 1 && l.TopSlot != want.TopSlot || !mapsEqual(l.Types, want.Types) {
			t.Errorf("%s: live %+v (bytes %v), written %+v", f.Template, *l, deref(l.Bytes), want)
		}
	}
	if seen != len(truth.Families) {
		t.Errorf("%d of the %d seeded families are in the report", seen, len(truth.Families))
	}
	if len(lr.Old) != len(truth.Old) {
		t.Errorf("old names %d, written %d", len(lr.Old), len(truth.Old))
	}
	for _, o := range lr.Old {
		want, ok := truth.Old[o.Template]
		if !ok || o.Keys != want.Keys || deref(o.Bytes) != want.Bytes || o.Slots != want.Slots || o.Nodes != want.Nodes || o.Family != want.New {
			t.Errorf("old name %s: %+v (bytes %v), written %+v", o.Template, o.liveFigures, deref(o.Bytes), want)
		}
	}
	if lr.Foreign.Keys != truth.Foreign.Keys || deref(lr.Foreign.Bytes) != truth.Foreign.Bytes {
		t.Errorf("foreign keys %d (%v bytes), written %d (%d bytes)", lr.Foreign.Keys, deref(lr.Foreign.Bytes), truth.Foreign.Keys, truth.Foreign.Bytes)
	}
	prefixes := map[string]int64{}
	for _, p := range lr.Foreign.Prefixes {
		prefixes[p.Prefix] = p.Keys
	}
	if !mapsEqual(prefixes, truth.Foreign.Prefixes) {
		t.Errorf("foreign prefixes %v, written %v", prefixes, truth.Foreign.Prefixes)
	}
	checkSlotsAndNodes(t, lr, truth)
}

// checkSlotsAndNodes: every non-empty slot's keys and every node's, which
// are exact even when the names are sampled (a cluster's slot counts are
// asked, DBSIZE is asked).
func checkSlotsAndNodes(t *testing.T, lr *liveReport, truth seedTruth) {
	t.Helper()
	slots := map[string]int64{}
	for _, sk := range lr.SlotKeys {
		slots[strconv.FormatInt(sk[0], 10)] = sk[1]
	}
	if lr.Exact || lr.Cluster {
		if !mapsEqual(slots, truth.Slots) {
			t.Errorf("%d non-empty slots, written %d; they differ", len(slots), len(truth.Slots))
		}
		if len(lr.HotSlots) == 0 || lr.HotSlots[0].Keys != slices.Max(mapValues(truth.Slots)) {
			t.Errorf("hottest slots %+v", lr.HotSlots)
		}
	}
	if len(lr.Nodes) != len(truth.Masters) {
		t.Fatalf("%d nodes, written to %d masters", len(lr.Nodes), len(truth.Masters))
	}
	for _, m := range truth.Masters {
		i := slices.IndexFunc(lr.Nodes, func(n liveNode) bool { return n.Slots == m.Slots })
		if i < 0 || lr.Nodes[i].Keys != m.Keys || lr.Nodes[i].Error != "" {
			t.Errorf("master %s (slots %s, %d keys): nodes %+v", m.Addr, m.Slots, m.Keys, lr.Nodes)
		}
	}
}

// checkSampled: each count's interval holds what was written, and each
// byte total's.
func checkSampled(t *testing.T, r keysReport, truth seedTruth) {
	t.Helper()
	lr := r.Live
	if lr == nil || lr.Exact || lr.Keys != truth.Total || lr.Read == 0 || lr.Read > 2000 {
		t.Fatalf("sampled report %+v, want at most 2000 of %d keys read", lr, truth.Total)
	}
	within := func(what string, got, err, want int64) {
		if err <= 0 || got-err > want || got+err < want {
			t.Errorf("%s: ~%d±%d, written %d", what, got, err, want)
		}
	}
	for _, f := range r.Families {
		if want, ok := truth.Families[f.Template]; ok && f.Live != nil {
			within(f.Template+" keys", f.Live.Keys, f.Live.KeysError, want.Keys)
			within(f.Template+" bytes", deref(f.Live.Bytes), f.Live.BytesError, want.Bytes)
		}
	}
	for _, o := range lr.Old {
		within(o.Template+" keys", o.Keys, o.KeysError, truth.Old[o.Template].Keys)
	}
	within("foreign keys", lr.Foreign.Keys, lr.Foreign.KeysError, truth.Foreign.Keys)
	checkSlotsAndNodes(t, lr, truth)
}

// TestKeysLiveGroundTruth seeds a cluster of three masters, each with a
// replica, through the shop service's own code, and checks every figure
// keys -live prints against what was written: exact when every key is
// read, on the masters and on the replicas; within the stated error when
// sampled; the text fits a terminal; nothing is written; and a node lost
// mid-read gives a partial report that names it.
func TestKeysLiveGroundTruth(t *testing.T) {
	masters, replicas := redistest.StartCluster(t, 3, 1)
	truth := seedLive(t, masters[0].Addr, false)
	waitReplicated(t, masters, replicas)
	waitSlotsListReplicas(t, masters[0].Addr)
	before := writeCounters(t, masters)
	url := "redis://" + masters[0].Addr

	t.Run("exact", func(t *testing.T) {
		r, stderr, code := keysLive(t, url, "-live-measure", "100000")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		checkExact(t, r, truth)
	})
	t.Run("replicas", func(t *testing.T) {
		r, stderr, code := keysLive(t, url, "-live-measure", "100000", "-live-replicas")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		for _, n := range r.Live.Nodes {
			if !n.Replica || !slices.ContainsFunc(replicas, func(s *redistest.Server) bool { return s.Addr == n.Addr }) {
				t.Errorf("node %+v is not a replica", n)
			}
		}
		checkExact(t, r, truth)
	})
	t.Run("sampled", func(t *testing.T) {
		r, stderr, code := keysLive(t, url, "-live-budget", "2000")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		checkSampled(t, r, truth)
	})
	t.Run("old name given", func(t *testing.T) {
		// as if the sessions had been called legacy:cache:<n> before
		r, stderr, code := keysLive(t, url, "-live-old", "legacy:cache:<n>=session:<token>")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		i := slices.IndexFunc(r.Live.Old, func(o *liveOld) bool { return o.Template == "legacy:cache:<n>" })
		if i < 0 || r.Live.Old[i].Keys != truth.Foreign.Prefixes["legacy:"] || r.Live.Old[i].Family != "session:<token>" ||
			r.Live.Foreign.Keys != truth.Foreign.Keys-truth.Foreign.Prefixes["legacy:"] {
			t.Errorf("with -live-old: old names %+v, foreign %+v", r.Live.Old, r.Live.Foreign)
		}
	})
	t.Run("text", func(t *testing.T) {
		stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-live", url, "./shop")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		for _, line := range strings.Split(stdout, "\n") {
			if utf8.RuneCountInString(line) > 80 && !strings.Contains(line, "{<") {
				t.Errorf("a line of %d characters:\n%s", utf8.RuneCountInString(line), line)
			}
		}
		for _, want := range []string{
			fmt.Sprintf("%d keys; every key read once", truth.Total),
			"feed:{global}:<id>", "under old names", "user:<id>:profile", "now user:{<id>}:profile",
			"legacy:* 300", "othersvc:* 120", "hottest slots", "every value of feed:{global}:<id> is here: its one constant tag {global} is", fmt.Sprintf("slot %d on ", truth.Families["feed:{global}:<id>"].TopSlot),
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the text has no %q:\n%s", want, stdout)
			}
		}
	})
	t.Run("html", func(t *testing.T) {
		stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-f", "html", "-live", url, "./shop")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		if n := strings.Count(stdout, `<i style="opacity:`); n != heatCells {
			t.Errorf("the slot strip has %d cells, want %d", n, heatCells)
		}
		for _, want := range []string{`class="livefig"`, "Under the old name <code>user:&lt;id&gt;:profile</code>", "<code>legacy:</code> 300"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the page has no %q", want)
			}
		}
	})
	t.Run("nothing written", func(t *testing.T) {
		after := writeCounters(t, masters)
		for i := range masters {
			if before[i].changes != after[i].changes {
				t.Errorf("master %s: %d changes since the seed", masters[i].Addr, after[i].changes-before[i].changes)
			}
			for cmd, n := range after[i].calls {
				if n != before[i].calls[cmd] && !readCommands[cmd] {
					t.Errorf("master %s: %s was called %d times", masters[i].Addr, cmd, n-before[i].calls[cmd])
				}
			}
		}
	})
	t.Run("node lost", func(t *testing.T) {
		// read in-process, so the node is lost while its keys are read:
		// batches of 500 names with a pause of 100 ms take about 600 ms
		families := []*keyFamily{{Template: "user:{<id>}:profile"}, {Template: "order:{<user>}:<n>"}}
		go func() {
			time.Sleep(250 * time.Millisecond)
			masters[2].Kill()
		}()
		rep, err := readLive(families, liveOptions{url: url, budget: 1 << 30, measure: 10, timeout: time.Minute, pause: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		lost := slices.IndexFunc(rep.Nodes, func(n liveNode) bool { return n.Addr == masters[2].Addr })
		if lost < 0 || rep.Nodes[lost].Error == "" || rep.Nodes[lost].Complete || len(rep.Unread) == 0 || !strings.Contains(rep.Unread[0], masters[2].Addr) {
			t.Errorf("a node lost mid-read: nodes %+v, not read %q", rep.Nodes, rep.Unread)
		}
		for i, n := range rep.Nodes {
			if i != lost && (!n.Complete || n.Error != "") {
				t.Errorf("node %+v was not read whole", n)
			}
		}
	})
}

// TestKeysLiveStandalone: on a standalone server the slots are computed
// from the names, and every figure is exact as on a cluster.
func TestKeysLiveStandalone(t *testing.T) {
	s := redistest.StartPlain(t)
	truth := seedLive(t, s.Addr, true)
	r, stderr, code := keysLive(t, "valkey://"+s.Addr, "-live-measure", "100000")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if r.Live.Cluster {
		t.Error("a standalone server read as a cluster")
	}
	checkExact(t, r, truth)
}

// TestKeysLiveBadInput: a wrong URL, a budget of 0, a server that is not
// there, a missing or wrong password, a server without MEMORY, and TLS.
func TestKeysLiveBadInput(t *testing.T) {
	plain := redistest.StartPlain(t)
	for _, c := range []struct {
		url   string
		flags []string
		code  int
		want  string
	}{
		{url: "ftp://" + plain.Addr, code: exitUsage, want: `the scheme "ftp" is not one of`},
		{url: plain.Addr, code: exitUsage, want: "is not a server URL"},
		{url: "redis://" + plain.Addr, flags: []string{"-live-budget", "0"}, code: exitUsage, want: "the budget is the most key names read, a number above 0"},
		{url: "redis://127.0.0.1:1", code: exitLive, want: "connecting to 127.0.0.1:1"},
		{url: "redis://" + plain.Addr, flags: []string{"-live-old", "profile:<id>"}, code: exitUsage, want: "write OLD=FAMILY"},
		{url: "redis://" + plain.Addr, flags: []string{"-live-old", "<id>=user:{<id>}:profile"}, code: exitUsage, want: "has no fixed text"},
		{url: "redis://" + plain.Addr, flags: []string{"-live-old", "profile:<id>=user:{<uid>}:avatar"}, code: exitUsage, want: `"user:{<uid>}:avatar" is not a key family of these packages`},
	} {
		_, stderr, code := keysLive(t, c.url, c.flags...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("-live %s %v: exit %d, %s; want exit %d and %q", c.url, c.flags, code, stderr, c.code, c.want)
		}
	}

	locked := redistest.StartPlain(t, "--requirepass", "s3cret")
	for url, want := range map[string]string{
		"redis://" + locked.Addr:               "NOAUTH",
		"redis://wrong@" + locked.Addr:         "WRONGPASS",
		"redis://default:wrong@" + locked.Addr: "WRONGPASS",
	} {
		_, stderr, code := keysLive(t, url)
		if code != exitLive || !strings.Contains(stderr, want) || strings.Contains(stderr, "wrong") && !strings.Contains(url, "wrong") {
			t.Errorf("-live %s: exit %d, %s; want exit %d and %q", url, code, stderr, exitLive, want)
		}
	}
	if _, stderr, code := keysLive(t, "redis://s3cret@"+locked.Addr); code != 0 {
		t.Errorf("with the password: exit %d\n%s", code, stderr)
	}

	// MEMORY renamed away: every other figure, and a report that says the
	// bytes were not read
	noMemory := redistest.StartPlain(t, "--rename-command", "MEMORY", "")
	write(t, noMemory.Addr, "SET", "user:{1}:profile", "x")
	r, stderr, code := keysLive(t, "redis://"+noMemory.Addr)
	if code != exitLive || !strings.Contains(stderr, "not read: bytes: MEMORY USAGE") {
		t.Errorf("without MEMORY: exit %d, %s", code, stderr)
	}
	for _, f := range r.Families {
		if f.Template == "user:{<id>}:profile" && (f.Live == nil || f.Live.Keys != 1 || f.Live.Bytes != nil) {
			t.Errorf("without MEMORY: %+v", f.Live)
		}
	}

	tlsServer, ca := redistest.StartTLS(t)
	env := append(fixtureEnv(), "SSL_CERT_FILE="+ca)
	stdout, stderr, code := runIn(t, liveKeysDir, env, crossslotBin, "keys", "-f", "json", "-live", "rediss://"+tlsServer.Addr, "./shop")
	if code != 0 || !strings.Contains(stdout, `"url": "rediss://`) {
		t.Errorf("over TLS: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-live", "rediss://"+tlsServer.Addr, "./shop")
	if code != exitLive || !strings.Contains(stderr, "certificate") {
		t.Errorf("over TLS without its authority: exit %d, %s", code, stderr)
	}
}

// readCommands are the commands keys -live may send (INFO commandstats's
// names), and REPLCONF, a replica's acknowledgement to its master.
var readCommands = map[string]bool{
	"replconf": true,
	"auth":     true, "select": true, "readonly": true, "ping": true, "info": true, "dbsize": true, "scan": true,
	"randomkey": true, "type": true, "pttl": true, "memory|usage": true, "cluster|slots": true,
	"cluster|countkeysinslot": true, "cluster|info": true, "cluster|nodes": true, "command": true, "command|docs": true,
}

type counters struct {
	changes int64            // INFO persistence's rdb_changes_since_last_save
	calls   map[string]int64 // INFO commandstats
}

func writeCounters(t *testing.T, servers []*redistest.Server) []counters {
	t.Helper()
	var out []counters
	for _, s := range servers {
		c, err := redistest.Dial(s.Addr)
		if err != nil {
			t.Fatal(err)
		}
		info, err := c.Do("INFO", "all")
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		k := counters{calls: map[string]int64{}}
		for _, line := range strings.Split(fmt.Sprint(info), "\r\n") {
			if v, ok := strings.CutPrefix(line, "rdb_changes_since_last_save:"); ok {
				k.changes, _ = strconv.ParseInt(v, 10, 64)
			}
			if rest, ok := strings.CutPrefix(line, "cmdstat_"); ok {
				name, stats, _ := strings.Cut(rest, ":calls=")
				n, _, _ := strings.Cut(stats, ",")
				k.calls[name], _ = strconv.ParseInt(n, 10, 64)
			}
		}
		out = append(out, k)
	}
	return out
}

// waitReplicated waits until each replica holds its master's keys.
func waitReplicated(t *testing.T, masters, replicas []*redistest.Server) {
	t.Helper()
	size := func(addr string) int64 {
		c, err := redistest.Dial(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		v, _ := c.Do("DBSIZE")
		n, _ := v.(int64)
		return n
	}
	var want int64
	for _, m := range masters {
		want += size(m.Addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		var got int64
		for _, r := range replicas {
			got += size(r.Addr)
		}
		if got == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the replicas did not catch up with %d keys", want)
}

// waitSlotsListReplicas waits until CLUSTER SLOTS on addr lists a replica
// for every shard: gossip takes a moment to tell one node of the others'
// replicas.
func waitSlotsListReplicas(t *testing.T, addr string) {
	t.Helper()
	c, err := redistest.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		v, err := c.Do("CLUSTER", "SLOTS")
		entries, _ := v.([]any)
		if err == nil && len(entries) > 0 && !slices.ContainsFunc(entries, func(e any) bool { f, _ := e.([]any); return len(f) < 4 }) {
			return
		}
	}
	t.Fatalf("CLUSTER SLOTS on %s does not list every shard's replica", addr)
}

func write(t *testing.T, addr string, args ...string) {
	t.Helper()
	c, err := redistest.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Do(args...); err != nil {
		t.Fatal(err)
	}
}

func mapsEqual[V comparable](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func mapValues(m map[string]int64) []int64 {
	var out []int64
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestKeysLiveFamilyOfTwoVariables: the keys of a template the code fills
// from two variables ("acct:"+from, "acct:"+to) are counted in its one
// family, and -live-old names that family by any names of its values.
func TestKeysLiveFamilyOfTwoVariables(t *testing.T) {
	s := redistest.StartPlain(t)
	for i := range 50 {
		write(t, s.Addr, "SET", fmt.Sprintf("acct:%d", i), "0")
	}
	for i := range 7 {
		write(t, s.Addr, "SET", fmt.Sprintf("account:%d", i), "0")
	}
	dir := keysModule(t, transferSrc)
	r, _ := keysJSON(t, dir, "-live", "redis://"+s.Addr, "-live-old", "account:<n>=acct:<id>")
	families := familiesByTemplate(r)
	if f := families["acct:<…>"]; f == nil || f.Live == nil || f.Live.Keys != 50 {
		t.Errorf("family acct:<…>: %+v", f)
	}
	if len(r.Live.Old) != 1 || r.Live.Old[0].Family != "acct:<…>" || r.Live.Old[0].Keys != 7 || r.Live.Foreign.Keys != 0 {
		t.Errorf("old names %+v, foreign %+v; want account:<n> of acct:<…> with 7 keys", r.Live.Old, r.Live.Foreign)
	}
}

// TestKeysLiveTimeLimit: a read the time limit stops says so in its header,
// with what was read, and exits 4; one it stops before the server answers
// fails naming the flag.
func TestKeysLiveTimeLimit(t *testing.T) {
	s := redistest.StartPlain(t)
	c, err := redistest.Dial(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if _, err := c.Do("SET", fmt.Sprintf("user:{%d}:profile", i), "x"); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	url := "redis://" + s.Addr
	// a pause between two SCANs far longer than the limit: the first
	// batch is read, the pause is cut by the time limit
	stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-live", url, "-live-timeout", "1s", "-live-pause", "1m", "./shop")
	header := strings.SplitN(stdout, "\n", 3)
	if code != exitLive || len(header) < 3 || !strings.HasPrefix(header[1], "1000 keys; stopped at -live-timeout 1s with ") ||
		strings.Contains(stdout, "-live-budget") || !strings.Contains(stderr, "not read: node "+s.Addr) {
		t.Errorf("stopped mid-scan: exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-live", url, "-live-timeout", "1ns", "./shop")
	if code != exitLive || !strings.Contains(stderr, "crossslot keys: -live: -live-timeout 1ns: stopped at the time limit: connecting to "+s.Addr) {
		t.Errorf("stopped before the server answered: exit %d\n%s", code, stderr)
	}
}
