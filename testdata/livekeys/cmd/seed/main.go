// Command seed fills a Redis Cluster (or, with -plain, one standalone server)
// through the shop package's own code paths, adds keys under the families'
// old untagged names and keys of other services, then measures every key on
// the server and writes the ground truth a `crossslot keys -live` test
// compares with.
//
//	go run ./cmd/seed -addr 127.0.0.1:7401 -users 1500 -out /tmp/truth.json
//
// It FLUSHALLs every master first: never point it at a shared cluster.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/livekeys/shop"
)

// The families as `crossslot keys -f json ./shop` prints their templates, and
// the exact shape of the keys the seeder makes of each.
var families = []struct {
	template string
	re       *regexp.Regexp
}{
	{"user:{<id>}:profile", regexp.MustCompile(`^user:\{u[0-9a-f]{8}\}:profile$`)},
	{"user:{<id>}:settings", regexp.MustCompile(`^user:\{u[0-9a-f]{8}\}:settings$`)},
	{"order:{<user>}:<n>", regexp.MustCompile(`^order:\{u[0-9a-f]{8}\}:[0-9]+$`)},
	{"session:<token>", regexp.MustCompile(`^session:[0-9a-f]{16}$`)},
	{"feed:{global}:<id>", regexp.MustCompile(`^feed:\{global\}:f[0-9]+$`)},
}

// Keys under a family's old name: its template without the hash tag's braces.
var olds = []struct {
	template, new string
	re            *regexp.Regexp
}{
	{"user:<id>:profile", "user:{<id>}:profile", regexp.MustCompile(`^user:u[0-9a-f]{8}:profile$`)},
}

// Keys no family builds.
var foreigns = []*regexp.Regexp{
	regexp.MustCompile(`^legacy:cache:[0-9]+$`),
	regexp.MustCompile(`^othersvc:job:[0-9]+$`),
}

const (
	legacyKeys = 300
	jobKeys    = 120
	workers    = 16
)

type Master struct {
	Addr  string `json:"addr"`
	Slots string `json:"slots"`
	Keys  int    `json:"keys"`
}

type Family struct {
	Keys        int            `json:"keys"`
	TTLLess     int            `json:"ttl_less"`
	Bytes       int64          `json:"bytes"`
	Slots       int            `json:"slots"`
	Nodes       int            `json:"nodes"`
	TopSlot     int            `json:"top_slot"`
	TopSlotKeys int            `json:"top_slot_keys"`
	TopSlotTies int            `json:"top_slot_ties"`
	Types       map[string]int `json:"types"`
}

type Old struct {
	Keys  int    `json:"keys"`
	Bytes int64  `json:"bytes"`
	Slots int    `json:"slots"`
	Nodes int    `json:"nodes"`
	New   string `json:"new"`
}

type Foreign struct {
	Keys     int            `json:"keys"`
	Bytes    int64          `json:"bytes"`
	Prefixes map[string]int `json:"prefixes"`
}

type Truth struct {
	Total    int               `json:"total"`
	Masters  []Master          `json:"masters"`
	Families map[string]Family `json:"families"`
	Old      map[string]Old    `json:"old"`
	Foreign  Foreign           `json:"foreign"`
	Slots    map[string]int    `json:"slots"`
}

// liveKey is one key as the server reports it.
type liveKey struct {
	name, typ, node string
	ttl, bytes      int64
	slot            int
}

// node is one master: its client, address and slot ranges.
type node struct {
	addr   string
	ranges [][2]int
	client *redis.Client
}

func main() {
	addr := flag.String("addr", "127.0.0.1:7401", "host:port of one node of the cluster (of the server with -plain)")
	plain := flag.Bool("plain", false, "the server is a standalone Redis, not a cluster")
	users := flag.Int("users", 1500, "number of users to seed")
	out := flag.String("out", "", "file to write the ground truth JSON to (default stdout)")
	flag.Parse()
	ctx := context.Background()
	start := time.Now()

	var rdb redis.UniversalClient
	if *plain {
		rdb = redis.NewClient(&redis.Options{Addr: *addr})
	} else {
		if err := waitClusterOK(ctx, *addr); err != nil {
			fatal(err)
		}
		rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})
	}
	defer rdb.Close()

	nodes, err := masters(ctx, rdb, *addr)
	if err != nil {
		fatal(err)
	}
	for _, n := range nodes {
		if err := n.client.FlushAll(ctx).Err(); err != nil {
			fatal(fmt.Errorf("FLUSHALL %s: %w", n.addr, err))
		}
	}
	if err := seed(ctx, rdb, *users); err != nil {
		fatal(err)
	}
	truth, err := measure(ctx, nodes, *plain)
	if err != nil {
		fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // templates keep their <...>
	enc.SetIndent("", "  ")
	if err := enc.Encode(truth); err != nil {
		fatal(err)
	}
	data := buf.Bytes()
	if *out == "" {
		os.Stdout.Write(data)
	} else if err := os.WriteFile(*out, data, 0o644); err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr, "seed: %d keys (%d users) on %d master(s) in %v\n", truth.Total, *users, len(nodes), time.Since(start).Round(time.Millisecond))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "seed:", err)
	os.Exit(1)
}

// waitClusterOK waits until the node reports cluster_state:ok (a cluster just
// created takes a moment).
func waitClusterOK(ctx context.Context, addr string) error {
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		info, err := c.ClusterInfo(ctx).Result()
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("cluster state is not ok")
			}
			return fmt.Errorf("%s: %w", addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// masters lists the masters, with their slot ranges from CLUSTER SLOTS and
// the clients ForEachMaster hands out.
func masters(ctx context.Context, rdb redis.UniversalClient, addr string) ([]*node, error) {
	c, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return []*node{{addr: addr, ranges: [][2]int{{0, 16383}}, client: rdb.(*redis.Client)}}, nil
	}
	slots, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER SLOTS: %w", err)
	}
	byAddr := map[string]*node{}
	for _, s := range slots {
		if len(s.Nodes) == 0 {
			continue
		}
		a := s.Nodes[0].Addr
		if byAddr[a] == nil {
			byAddr[a] = &node{addr: a}
		}
		byAddr[a].ranges = append(byAddr[a].ranges, [2]int{s.Start, s.End})
	}
	var mu sync.Mutex
	err = c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		n := byAddr[m.Options().Addr]
		if n == nil {
			return fmt.Errorf("master %s serves no slot in CLUSTER SLOTS", m.Options().Addr)
		}
		n.client = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*node
	for _, n := range byAddr {
		if n.client == nil {
			return nil, fmt.Errorf("CLUSTER SLOTS names %s, which ForEachMaster does not visit", n.addr)
		}
		sort.Slice(n.ranges, func(i, j int) bool { return n.ranges[i][0] < n.ranges[j][0] })
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ranges[0][0] < out[j].ranges[0][0] })
	return out, nil
}

var countries = []string{"DE", "FR", "US", "JP", "BR", "IN", "NG"}

// seed writes the shop's keys through its own functions, the old untagged
// profiles and the other services' keys. It is deterministic for a given -users.
func seed(ctx context.Context, rdb redis.UniversalClient, users int) error {
	s := shop.New(rdb)
	jobs := make(chan func() error)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range jobs {
				if err := job(); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}

	rng := rand.New(rand.NewPCG(1, 2))
	sessions := 0
	ids := map[string]bool{}
	for i := range users {
		// Random ids, as a database's would hash: some users share a slot.
		id := fmt.Sprintf("u%08x", rng.Uint32())
		for ids[id] {
			id = fmt.Sprintf("u%08x", rng.Uint32())
		}
		ids[id] = true
		p := shop.Profile{Name: "User " + strconv.Itoa(i), Email: id + "@example.com", Country: countries[i%len(countries)]}
		settings := fmt.Sprintf(`{"lang":"en","newsletter":%t,"theme":"dark"}`, i%3 == 0)
		orders := 1 + rng.IntN(3)
		withSession := i%2 == 0
		token := fmt.Sprintf("%016x", rng.Uint64())
		remember := false
		if withSession {
			remember = sessions%5 == 4 // every 5th session never expires
			sessions++
		}
		old := i%5 < 2 // 40% of users still have the pre-rename profile
		jobs <- func() error {
			if err := s.SaveUser(ctx, id, p, settings); err != nil {
				return fmt.Errorf("user %s: %w", id, err)
			}
			for n := 1; n <= orders; n++ {
				order := fmt.Sprintf(`{"user":%q,"n":%d,"total_cents":%d}`, id, n, 100*n+i%97)
				if err := s.PlaceOrder(ctx, id, n, order); err != nil {
					return fmt.Errorf("order %s/%d: %w", id, n, err)
				}
			}
			if withSession {
				if err := s.StartSession(ctx, token, id, remember); err != nil {
					return fmt.Errorf("session of %s: %w", id, err)
				}
			}
			if old {
				// What the code wrote before the hash tag was added.
				key := "user:" + id + ":profile"
				if err := rdb.HSet(ctx, key, "name", p.Name, "email", p.Email, "country", p.Country).Err(); err != nil {
					return fmt.Errorf("old profile %s: %w", id, err)
				}
			}
			return nil
		}
	}
	for f := range users / 3 {
		feed := "f" + strconv.Itoa(f)
		entries := 1 + rng.IntN(3)
		jobs <- func() error {
			for e := range entries {
				if err := s.Post(ctx, feed, fmt.Sprintf("entry %d of %s", e, feed)); err != nil {
					return fmt.Errorf("feed %s: %w", feed, err)
				}
			}
			if f%4 == 0 {
				return s.Pin(ctx, feed, "pinned")
			}
			return nil
		}
	}
	for n := range legacyKeys {
		jobs <- func() error {
			var ttl time.Duration
			if n%3 == 0 {
				ttl = 6 * time.Hour
			}
			return rdb.Set(ctx, "legacy:cache:"+strconv.Itoa(n), strings.Repeat("x", 20+n%50), ttl).Err()
		}
	}
	for n := range jobKeys {
		jobs <- func() error {
			return rdb.HSet(ctx, "othersvc:job:"+strconv.Itoa(n), "state", "queued", "attempts", n%4, "queue", "mail").Err()
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// measure scans every master and asks the server each key's type, TTL,
// memory usage and slot.
func measure(ctx context.Context, nodes []*node, plain bool) (*Truth, error) {
	var all []liveKey
	t := &Truth{Families: map[string]Family{}, Old: map[string]Old{}, Foreign: Foreign{Prefixes: map[string]int{}}, Slots: map[string]int{}}
	for _, n := range nodes {
		keys, err := scan(ctx, n.client)
		if err != nil {
			return nil, fmt.Errorf("SCAN %s: %w", n.addr, err)
		}
		dbsize, err := n.client.DBSize(ctx).Result()
		if err != nil {
			return nil, fmt.Errorf("DBSIZE %s: %w", n.addr, err)
		}
		if int64(len(keys)) != dbsize {
			return nil, fmt.Errorf("%s: SCAN found %d keys, DBSIZE says %d", n.addr, len(keys), dbsize)
		}
		live, err := describe(ctx, n, keys, plain)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.addr, err)
		}
		all = append(all, live...)
		var ranges []string
		for _, r := range n.ranges {
			ranges = append(ranges, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
		t.Masters = append(t.Masters, Master{Addr: n.addr, Slots: strings.Join(ranges, ","), Keys: len(keys)})
	}
	t.Total = len(all)

	famKeys := map[string][]liveKey{}
	oldKeys := map[string][]liveKey{}
	for _, k := range all {
		t.Slots[strconv.Itoa(k.slot)]++
		switch fam, old, foreign := classify(k.name); {
		case fam != "":
			famKeys[fam] = append(famKeys[fam], k)
		case old >= 0:
			oldKeys[olds[old].template] = append(oldKeys[olds[old].template], k)
		case foreign:
			t.Foreign.Keys++
			t.Foreign.Bytes += k.bytes
			t.Foreign.Prefixes[prefix(k.name)]++
		default:
			return nil, fmt.Errorf("key %q has no known shape", k.name)
		}
	}
	for _, f := range families {
		ks := famKeys[f.template]
		fam := Family{Types: map[string]int{}}
		for _, k := range ks {
			fam.Keys++
			fam.Bytes += k.bytes
			if k.ttl == -1 {
				fam.TTLLess++
			}
			fam.Types[k.typ]++
		}
		slots, nodes := spread(ks)
		fam.Slots, fam.Nodes = len(slots), nodes
		// The top slot holds the most keys; of a tie, the lowest slot.
		for s, c := range slots {
			if c > fam.TopSlotKeys || c == fam.TopSlotKeys && s < fam.TopSlot {
				fam.TopSlot, fam.TopSlotKeys = s, c
			}
		}
		for _, c := range slots {
			if c == fam.TopSlotKeys {
				fam.TopSlotTies++
			}
		}
		t.Families[f.template] = fam
	}
	for _, o := range olds {
		ks := oldKeys[o.template]
		old := Old{New: o.new}
		for _, k := range ks {
			old.Keys++
			old.Bytes += k.bytes
		}
		slots, nodes := spread(ks)
		old.Slots, old.Nodes = len(slots), nodes
		t.Old[o.template] = old
	}

	sum := t.Foreign.Keys
	for _, f := range t.Families {
		sum += f.Keys
	}
	for _, o := range t.Old {
		sum += o.Keys
	}
	if sum != t.Total {
		return nil, fmt.Errorf("families, old and foreign hold %d keys, the masters %d", sum, t.Total)
	}
	return t, nil
}

// scan returns a master's keys, each once (SCAN may repeat one).
func scan(ctx context.Context, c *redis.Client) ([]string, error) {
	seen := map[string]bool{}
	var keys []string
	iter := c.Scan(ctx, 0, "*", 1000).Iterator()
	for iter.Next(ctx) {
		if k := iter.Val(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys, iter.Err()
}

// describe asks the master the TYPE, TTL, MEMORY USAGE and (on a cluster)
// CLUSTER KEYSLOT of its keys, pipelined.
func describe(ctx context.Context, n *node, keys []string, plain bool) ([]liveKey, error) {
	var out []liveKey
	for len(keys) > 0 {
		batch := keys[:min(len(keys), 500)]
		keys = keys[len(batch):]
		pipe := n.client.Pipeline()
		types := make([]*redis.StatusCmd, len(batch))
		ttls := make([]*redis.Cmd, len(batch))
		mems := make([]*redis.IntCmd, len(batch))
		slots := make([]*redis.IntCmd, len(batch))
		for i, k := range batch {
			types[i] = pipe.Type(ctx, k)
			ttls[i] = pipe.Do(ctx, "TTL", k)
			mems[i] = pipe.MemoryUsage(ctx, k)
			if !plain {
				slots[i] = pipe.ClusterKeySlot(ctx, k)
			}
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, err
		}
		for i, k := range batch {
			ttl, err := ttls[i].Int64()
			if err != nil {
				return nil, err
			}
			lk := liveKey{name: k, typ: types[i].Val(), node: n.addr, ttl: ttl, bytes: mems[i].Val()}
			if lk.typ == "none" || ttl == -2 {
				return nil, fmt.Errorf("key %q vanished while measuring", k)
			}
			if plain {
				// A standalone server has no CLUSTER KEYSLOT: the slot the key
				// would have on a cluster.
				lk.slot = keySlot(k)
			} else {
				lk.slot = int(slots[i].Val())
				if local := keySlot(k); local != lk.slot {
					return nil, fmt.Errorf("key %q: CLUSTER KEYSLOT %d, CRC16 %d", k, lk.slot, local)
				}
				if !n.serves(lk.slot) {
					return nil, fmt.Errorf("key %q on slot %d, which %s does not serve", k, lk.slot, n.addr)
				}
			}
			out = append(out, lk)
		}
	}
	return out, nil
}

func (n *node) serves(slot int) bool {
	for _, r := range n.ranges {
		if r[0] <= slot && slot <= r[1] {
			return true
		}
	}
	return false
}

// classify names a key's family template, its old name's index, or whether
// it is a foreign key.
func classify(key string) (family string, old int, foreign bool) {
	for _, f := range families {
		if f.re.MatchString(key) {
			return f.template, -1, false
		}
	}
	for i, o := range olds {
		if o.re.MatchString(key) {
			return "", i, false
		}
	}
	for _, re := range foreigns {
		if re.MatchString(key) {
			return "", -1, true
		}
	}
	return "", -1, false
}

// prefix is a key's text up to and including its first ':', or the whole key.
func prefix(key string) string {
	if i := strings.IndexByte(key, ':'); i >= 0 {
		return key[:i+1]
	}
	return key
}

// spread counts keys per slot and the distinct nodes holding them.
func spread(ks []liveKey) (map[int]int, int) {
	slots := map[int]int{}
	nodes := map[string]bool{}
	for _, k := range ks {
		slots[k.slot]++
		nodes[k.node] = true
	}
	return slots, len(nodes)
}

// keySlot is Redis Cluster's hash slot of a key (CRC16/XMODEM of its hash tag
// or of the whole key, mod 16384). Used only to check the server's answer and
// on a standalone server, which has no CLUSTER KEYSLOT.
func keySlot(key string) int {
	if s := strings.IndexByte(key, '{'); s >= 0 {
		if e := strings.IndexByte(key[s+1:], '}'); e > 0 {
			key = key[s+1 : s+1+e]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}
