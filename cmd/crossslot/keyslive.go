package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/crossslot/crossslot/internal/live"
	"github.com/crossslot/crossslot/slotcalc"
)

// How `crossslot keys -live` joins the code's key families with a running
// server's keys: each key name read is matched to the most specific family
// template (its fixed text the longest), else to a family's old name (its
// template without the hash tag's braces, what the keys were called before
// the code tagged them), else it is foreign. Counts are scaled from a
// sample when the budget does not cover every key; a few keys of each
// family are measured (TYPE, PTTL, MEMORY USAGE) for bytes and TTLs.

// zInterval is the half-width, in standard errors, of the interval a
// sampled figure is given with: three standard errors, which hold about
// 997 in 1000 samples.
const zInterval = 3.0

// scanCount is SCAN's COUNT and the size of a batch of RANDOMKEY: small
// enough that one command holds the server for tens of microseconds, as
// each batch is followed by a pause (-live-pause) in which the server
// serves its other clients.
const scanCount = 100

// A liveFigures is what the live read says of one family, old name or
// the foreign keys.
type liveFigures struct {
	// Keys is the estimated number of keys, KeysError the interval's
	// half-width (0 when every key was read).
	Keys      int64 `json:"keys"`
	KeysError int64 `json:"keys_error,omitempty"`
	// Bytes is MEMORY USAGE's total, estimated from the measured keys;
	// absent when the server does not answer MEMORY.
	Bytes      *int64 `json:"bytes,omitempty"`
	BytesError int64  `json:"bytes_error,omitempty"`
	// Measured is the number of keys measured for bytes, TTLs and types.
	Measured int `json:"measured"`
	// NoTTL is the share (0 to 1) of the measured keys without a TTL.
	NoTTL float64          `json:"no_ttl_share"`
	Types map[string]int64 `json:"types,omitempty"` // estimated keys per type
	// Slots and Nodes are the slots and nodes the names read fall on: a
	// lower bound when sampled.
	Slots int `json:"slots"`
	Nodes int `json:"nodes"`
	// NodeKeys are its estimated keys on each node, in the report's
	// order of nodes: how evenly it spreads.
	NodeKeys []int64 `json:"node_keys"`
	// TopSlot is the slot holding most of its keys, with their estimated
	// number and share of its keys.
	TopSlot      int     `json:"top_slot"`
	TopSlotKeys  int64   `json:"top_slot_keys"`
	TopSlotShare float64 `json:"top_slot_share"`
}

// A liveOld is the keys still under a family's old name.
type liveOld struct {
	Template string `json:"template"` // the old name: user:<id>:profile
	Family   string `json:"family"`   // the family it became: user:{<id>}:profile
	liveFigures
}

// A liveForeign is the keys no family of the code builds.
type liveForeign struct {
	liveFigures
	// Prefixes are the most common: a key's text up to its first ':'.
	Prefixes []livePrefix `json:"prefixes,omitempty"`
}

type livePrefix struct {
	Prefix string `json:"prefix"`
	Keys   int64  `json:"keys"`
}

// A liveSlot is one of the hottest slots.
type liveSlot struct {
	Slot     int          `json:"slot"`
	Node     string       `json:"node,omitempty"`
	Keys     int64        `json:"keys"`
	Families []livePrefix `json:"families"` // family template (or "old name ...", "foreign") and its keys there
}

type liveNode struct {
	Addr    string `json:"addr"`
	Slots   string `json:"slots"`
	Replica bool   `json:"replica,omitempty"`
	Keys    int64  `json:"keys"` // DBSIZE
	// Unsized says the node did not answer DBSIZE: its keys are unknown.
	Unsized  bool   `json:"unsized,omitempty"`
	Read     int64  `json:"read"`
	Complete bool   `json:"complete"`
	Error    string `json:"error,omitempty"`
}

// A liveReport is the live part of `crossslot keys -live -f json`.
type liveReport struct {
	URL     string `json:"url"`
	Server  string `json:"server,omitempty"`
	Cluster bool   `json:"cluster"`
	// Keys is the nodes' DBSIZEs added up; Read the names read.
	Keys int64 `json:"keys"`
	Read int64 `json:"read"`
	// Exact is set when every key was read once: the figures are counts,
	// and bytes, TTLs and types are estimated only where a family has more
	// keys than were measured.
	Exact  bool       `json:"exact"`
	Method string     `json:"method"`
	Nodes  []liveNode `json:"nodes"`
	// Unmatchable are the families whose template has no fixed text to
	// tell their keys from others' (<key>): no live key is given to them.
	Unmatchable []string    `json:"unmatchable,omitempty"`
	Old         []*liveOld  `json:"old,omitempty"`
	Foreign     liveForeign `json:"foreign"`
	HotSlots    []liveSlot  `json:"hot_slots"`
	// SlotKeys are the non-empty slots' key counts, [slot, keys]: exact
	// on a cluster (CLUSTER COUNTKEYSINSLOT), estimated from the names
	// read on a standalone server.
	SlotKeys [][2]int64 `json:"slot_keys"`
	// Unread says what could not be read; the figures leave it out.
	Unread []string `json:"unread,omitempty"`
	// Families' figures are on each family of the report.
	families []*keyFamily
}

// liveOptions are keys' -live flags.
type liveOptions struct {
	url      string
	budget   int
	measure  int
	timeout  time.Duration
	pause    time.Duration
	replicas bool
	// olds are the old names -live-old gives, besides each tagged family's
	// own (its template without the tag's braces).
	olds oldNames
}

// oldNames is -live-old's list: OLD=FAMILY, a name the keys had before a
// rename the braces do not tell (profile:<id> before user:{<id>}:profile).
type oldNames []oldName

func (o *oldNames) String() string {
	var parts []string
	for _, n := range *o {
		parts = append(parts, n.template+"="+n.family)
	}
	return strings.Join(parts, ",")
}

func (o *oldNames) Set(s string) error {
	old, family, ok := strings.Cut(s, "=")
	if !ok || old == "" || family == "" {
		return fmt.Errorf("%q: write OLD=FAMILY, as profile:<id>=user:{<id>}:profile", s)
	}
	if !parseTemplate(old).matchable() {
		return fmt.Errorf("%q: the old name %q has no fixed text to tell its keys from others", s, old)
	}
	*o = append(*o, oldName{old, family})
	return nil
}

// resolve names each -live-old family as the families do: one given with
// other names for its values (acct:<id> for acct:<…>) is the family of its
// shape (see familyShape). It is the first that is no family, or "".
func (o oldNames) resolve(families []*keyFamily) (unknown string) {
	for i, n := range o {
		j := slices.IndexFunc(families, func(f *keyFamily) bool { return familyShape(f.Template) == familyShape(n.family) })
		if j < 0 {
			return n.family
		}
		o[i].family = families[j].Template
	}
	return ""
}

// readLive joins families with the live key space the options name. The
// error is for what stops the read as a whole (no node reached); what
// stops part of it is in the report's Unread.
func readLive(families []*keyFamily, o liveOptions) (*liveReport, error) {
	target, err := live.ParseURL(o.url)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	ks, err := live.Open(ctx, target, o.replicas)
	if errors.Is(err, live.ErrTimeLimit) {
		return nil, fmt.Errorf("-live-timeout %v: %w", o.timeout, err)
	}
	if err != nil {
		return nil, err
	}
	rep := &liveReport{URL: target.URL, Server: ks.Server, Cluster: ks.Cluster, families: families}
	m := newFamilyMatcher(families, o.olds)
	rep.Unmatchable = m.unmatchable

	lim := live.Limits{Budget: o.budget, Count: scanCount, Pause: o.pause}
	groups := make([]*liveGroup, len(m.groups))
	for i := range groups {
		groups[i] = newLiveGroup(len(ks.Nodes), o.measure, uint64(i))
	}
	groups[m.foreign].prefix = map[string]int64{}
	reads := ks.ReadNames(ctx, lim, func(node int, names []string) {
		for _, name := range names {
			groups[m.match(name)].add(node, slotcalc.Slot(name), name)
		}
	})
	weights := make([]float64, len(reads))
	rep.Exact = true
	for i, r := range reads {
		n := liveNode{Addr: r.Node.Addr, Slots: r.Node.SlotRanges(), Replica: r.Node.Replica, Keys: r.Total, Unsized: !r.Sized, Read: r.Read, Complete: r.Complete}
		switch {
		case r.Err != nil && !r.Sized:
			n.Error = r.Err.Error()
			rep.Unread = append(rep.Unread, fmt.Sprintf("node %s (slots %s): %v; its keys are unknown", r.Node.Addr, n.Slots, r.Err))
		case r.Err != nil:
			n.Error = r.Err.Error()
			rep.Unread = append(rep.Unread, fmt.Sprintf("node %s (slots %s): %v; read %d of its %d keys", r.Node.Addr, n.Slots, r.Err, r.Read, r.Total))
		}
		rep.Nodes = append(rep.Nodes, n)
		rep.Keys += r.Total
		rep.Read += r.Read
		rep.Exact = rep.Exact && r.Complete
		weights[i] = r.Weight()
	}
	rep.Method = readMethod(reads, o)

	// Measure a few keys of each group, node by node.
	for node := range ks.Nodes {
		var keys []string
		var owners []*liveGroup
		for _, g := range groups {
			for _, name := range g.picked[node] {
				keys = append(keys, name)
				owners = append(owners, g)
			}
		}
		if len(keys) == 0 || reads[node].Err != nil {
			continue
		}
		measured := ks.Measure(ctx, node, keys, live.Limits{Count: 100, Pause: o.pause})
		for i, f := range measured.Facts {
			owners[i].facts = append(owners[i].facts, f)
		}
		if measured.NoMemory != nil {
			rep.Unread = appendOnce(rep.Unread, fmt.Sprintf("bytes: %v", measured.NoMemory))
		}
		if measured.Stopped != nil {
			rep.Unread = append(rep.Unread, fmt.Sprintf("node %s: measured %d of %d keys: %v", ks.Nodes[node].Addr, len(measured.Facts), len(keys), measured.Stopped))
		}
	}

	nodeOf := func(slot int) int { return ks.NodeOf[slot] }
	for i, f := range families {
		if g := m.familyGroup[i]; g >= 0 {
			fig := groups[g].figures(reads, weights, nodeOf, rep.Exact)
			f.Live = &fig
		}
	}
	for i, old := range m.olds {
		fig := groups[m.oldGroup[i]].figures(reads, weights, nodeOf, rep.Exact)
		if fig.Keys > 0 {
			rep.Old = append(rep.Old, &liveOld{Template: old.template, Family: old.family, liveFigures: fig})
		}
	}
	foreign := groups[m.foreign]
	rep.Foreign.liveFigures = foreign.figures(reads, weights, nodeOf, rep.Exact)
	rep.Foreign.Prefixes = foreign.prefixes(weights)

	// Slots: exact on a cluster, else from the names read.
	var slotKeys [slotcalc.SlotCount]int64
	if ks.Cluster {
		counts, errs := ks.SlotCounts(ctx)
		for _, err := range errs {
			rep.Unread = append(rep.Unread, fmt.Sprintf("slot counts: %v", err))
		}
		slotKeys = counts
	} else {
		for _, g := range groups {
			for slot, n := range g.slots {
				slotKeys[slot] += int64(math.Round(float64(n) * weights[0]))
			}
		}
	}
	for s, n := range slotKeys {
		if n > 0 {
			rep.SlotKeys = append(rep.SlotKeys, [2]int64{int64(s), n})
		}
	}
	hottest := make([][2]int64, len(rep.SlotKeys))
	copy(hottest, rep.SlotKeys)
	sort.SliceStable(hottest, func(i, j int) bool { return hottest[i][1] > hottest[j][1] })
	for _, sk := range hottest[:min(5, len(hottest))] {
		slot := int(sk[0])
		hs := liveSlot{Slot: slot, Keys: sk[1]}
		if n := ks.NodeOf[slot]; n >= 0 && ks.Cluster {
			hs.Node = ks.Nodes[n].Addr
		}
		w := 1.0
		if node := ks.NodeOf[slot]; node >= 0 {
			w = weights[node]
		}
		for i, g := range groups {
			if n := g.slots[slot]; n > 0 {
				hs.Families = append(hs.Families, livePrefix{Prefix: m.groups[i], Keys: int64(math.Round(float64(n) * w))})
			}
		}
		sort.Slice(hs.Families, func(i, j int) bool {
			if hs.Families[i].Keys != hs.Families[j].Keys {
				return hs.Families[i].Keys > hs.Families[j].Keys
			}
			return hs.Families[i].Prefix < hs.Families[j].Prefix
		})
		rep.HotSlots = append(rep.HotSlots, hs)
	}
	return rep, nil
}

// readMethod says how the names were read: every one, or a uniform
// sample when the nodes hold more than the budget; and what stopped a read
// cut short, the time limit or a node (see the nodes), with what was read.
func readMethod(reads []*live.NodeRead, o liveOptions) string {
	var total, read int64
	complete, sized, timedOut := true, false, false
	for _, r := range reads {
		total += r.Total
		read += r.Read
		complete = complete && r.Complete
		sized = sized || r.Sized
		timedOut = timedOut || errors.Is(r.Err, live.ErrTimeLimit)
	}
	const estimate = "scaled to each node's DBSIZE; ~N±E is an estimate and three standard errors"
	scan := fmt.Sprintf("SCAN COUNT %d on each node", scanCount)
	sampled := total > int64(o.budget)
	switch {
	case complete:
		return fmt.Sprintf("every key read once (%s)", scan)
	case timedOut && !sized:
		return fmt.Sprintf("stopped at -live-timeout %v before a node said how many keys it holds: no key read", o.timeout)
	case timedOut && sampled:
		return fmt.Sprintf("stopped at -live-timeout %v with %d of them read, of a uniform sample of -live-budget %d (RANDOMKEY, each node its share), %s", o.timeout, read, o.budget, estimate)
	case timedOut:
		return fmt.Sprintf("stopped at -live-timeout %v with %d of them read (%s), a scan cut short, %s", o.timeout, read, scan, estimate)
	case sampled:
		return fmt.Sprintf("more than -live-budget %d: a uniform sample of %d (RANDOMKEY, each node its share), %s", o.budget, read, estimate)
	}
	return fmt.Sprintf("%d of them read (%s) before a node stopped answering, a scan cut short, %s", read, scan, estimate)
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// A familyMatcher gives a key name its group: a family, a family's old
// name, or the foreign keys. Groups are named for reports: the family's
// template, "old name ..." and "foreign".
type familyMatcher struct {
	groups      []string
	familyGroup []int // per family: its group, -1 when unmatchable
	olds        []oldName
	oldGroup    []int
	foreign     int
	unmatchable []string
	current     []*template // the families' templates, then the old names'
	byPrefix    map[string][]*template
	prefixLens  []int
}

type oldName struct{ template, family string }

// A template is a key template read as a pattern: its fixed texts, with a
// value (<id>) of any text between two of them.
type template struct {
	parts []string // fixed texts; a value between each two
	fixed int      // the fixed texts' length: the more, the more specific
	group int
	old   bool
}

func parseTemplate(s string) *template {
	t := &template{}
	last := 0
	for _, m := range valuePart().FindAllStringIndex(s, -1) {
		t.parts = append(t.parts, s[last:m[0]])
		last = m[1]
	}
	t.parts = append(t.parts, s[last:])
	for _, p := range t.parts {
		t.fixed += len(p)
	}
	return t
}

// matchable reports a template with fixed text that can tell its keys
// from others': a letter or a digit outside its values.
func (t *template) matchable() bool {
	for _, p := range t.parts {
		if strings.IndexFunc(p, func(r rune) bool {
			return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		}) >= 0 {
			return true
		}
	}
	return false
}

// matches reports whether key is the template with some text for each
// value: its first fixed text a prefix, its last a suffix, and the others
// in order between them (leftmost first, which finds a match whenever
// there is one, as values take any text).
func (t *template) matches(key string) bool {
	if len(t.parts) == 1 {
		return key == t.parts[0]
	}
	first, last := t.parts[0], t.parts[len(t.parts)-1]
	if len(key) < len(first)+len(last) || !strings.HasPrefix(key, first) || !strings.HasSuffix(key, last) {
		return false
	}
	rest := key[len(first) : len(key)-len(last)]
	for _, p := range t.parts[1 : len(t.parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// oldTemplate is the template without its hash tag's braces: the name a
// family's keys had before the code tagged them; "" for an untagged one.
func oldTemplate(s string) string {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return ""
	}
	end := strings.IndexByte(s[open+1:], '}')
	if end <= 0 {
		return ""
	}
	return s[:open] + s[open+1:open+1+end] + s[open+2+end:]
}

func newFamilyMatcher(families []*keyFamily, given []oldName) *familyMatcher {
	m := &familyMatcher{byPrefix: map[string][]*template{}}
	known := map[string]bool{}
	for _, f := range families {
		known[f.Template] = true
	}
	lens := map[int]bool{}
	addTemplate := func(t *template) {
		m.current = append(m.current, t)
		m.byPrefix[t.parts[0]] = append(m.byPrefix[t.parts[0]], t)
		lens[len(t.parts[0])] = true
	}
	for _, f := range families {
		t := parseTemplate(f.Template)
		if !t.matchable() {
			m.familyGroup = append(m.familyGroup, -1)
			m.unmatchable = append(m.unmatchable, f.Template)
			continue
		}
		t.group = len(m.groups)
		m.familyGroup = append(m.familyGroup, t.group)
		m.groups = append(m.groups, f.Template)
		addTemplate(t)
	}
	olds := slices.Clone(given)
	for _, f := range families {
		olds = append(olds, oldName{oldTemplate(f.Template), f.Template})
	}
	for _, old := range olds {
		if old.template == "" || known[old.template] {
			continue
		}
		known[old.template] = true
		t := parseTemplate(old.template)
		if !t.matchable() {
			continue
		}
		t.group, t.old = len(m.groups), true
		m.olds = append(m.olds, old)
		m.oldGroup = append(m.oldGroup, t.group)
		m.groups = append(m.groups, "old name "+old.template)
		addTemplate(t)
	}
	m.foreign = len(m.groups)
	m.groups = append(m.groups, "foreign")
	for n := range lens {
		m.prefixLens = append(m.prefixLens, n)
	}
	sort.Ints(m.prefixLens)
	return m
}

// match is key's group: the most specific family whose template it
// matches, else the most specific old name, else the foreign keys.
func (m *familyMatcher) match(key string) int {
	var best *template
	for _, n := range m.prefixLens {
		if n > len(key) {
			break
		}
		for _, t := range m.byPrefix[key[:n]] {
			if !t.matches(key) {
				continue
			}
			if best == nil || better(t, best) {
				best = t
			}
		}
	}
	if best == nil {
		return m.foreign
	}
	return best.group
}

// better reports whether t is the better match than u: a current family
// before an old name, then the more fixed text, then the first listed.
func better(t, u *template) bool {
	if t.old != u.old {
		return !t.old
	}
	if t.fixed != u.fixed {
		return t.fixed > u.fixed
	}
	return t.group < u.group
}

// A liveGroup gathers the names read of one group.
type liveGroup struct {
	perNode []int64       // names read on each node
	slots   map[int]int64 // names read on each slot
	picked  [][]string    // per node, the keys to measure: a uniform sample
	limit   int
	rng     *rand.Rand
	facts   []live.KeyFacts // measured, in no particular order
	// prefix counts the names by prefix, for the foreign keys only (nil
	// for the others, which their template names).
	prefix map[string]int64
}

func newLiveGroup(nodes, limit int, seed uint64) *liveGroup {
	return &liveGroup{
		perNode: make([]int64, nodes), slots: map[int]int64{}, picked: make([][]string, nodes),
		limit: limit, rng: rand.New(rand.NewPCG(seed, 1)),
	}
}

// add counts one name, keeps it in the node's sample of keys to measure
// (reservoir sampling, so that each name read is equally likely kept),
// and counts its prefix where prefixes are counted.
func (g *liveGroup) add(node, slot int, name string) {
	g.perNode[node]++
	g.slots[slot]++
	if len(g.picked[node]) < g.limit { // -live-measure keys of each node
		g.picked[node] = append(g.picked[node], name)
	} else if j := g.rng.Int64N(g.perNode[node]); j < int64(g.limit) {
		g.picked[node][j] = name
	}
	if g.prefix == nil {
		return
	}
	p := name
	if i := strings.IndexByte(name, ':'); i >= 0 {
		p = name[:i+1]
	}
	g.prefix[p]++
}

// figures estimates the group's figures from the names read on each node,
// weighted by the node's keys per name read.
func (g *liveGroup) figures(reads []*live.NodeRead, weights []float64, nodeOf func(int) int, exact bool) liveFigures {
	var f liveFigures
	var keys, variance float64
	for i, n := range g.perNode {
		keys += float64(n) * weights[i]
		if r := reads[i]; !r.Complete && r.Read > 0 {
			p := float64(n) / float64(r.Read)
			if n == 0 {
				p = 1 / float64(r.Read) // none drawn: the interval still has a width
			}
			variance += float64(r.Total) * float64(r.Total) * p * (1 - p) / float64(r.Read)
		}
	}
	f.Keys = int64(math.Round(keys))
	for i, n := range g.perNode {
		f.NodeKeys = append(f.NodeKeys, int64(math.Round(float64(n)*weights[i])))
	}
	if !exact {
		f.KeysError = int64(math.Ceil(zInterval * math.Sqrt(variance)))
	}
	f.Slots = len(g.slots)
	nodes := map[int]bool{}
	var top int64
	var read int64
	for s, n := range g.slots {
		nodes[nodeOf(s)] = true
		read += n
		if n > top || n == top && s < f.TopSlot {
			top, f.TopSlot = n, s
		}
	}
	f.Nodes = len(nodes)
	if read > 0 {
		f.TopSlotShare = float64(top) / float64(read)
		f.TopSlotKeys = int64(math.Round(f.TopSlotShare * keys))
	}
	f.Measured = len(g.facts)
	if f.Measured == 0 {
		return f
	}
	var bytes, sq float64
	bytesKnown := true
	var noTTL int
	types := map[string]int{}
	for _, k := range g.facts {
		if k.Bytes < 0 {
			bytesKnown = false
		}
		bytes += float64(k.Bytes)
		sq += float64(k.Bytes) * float64(k.Bytes)
		if k.TTL == -1 {
			noTTL++
		}
		types[k.Type]++
	}
	n := float64(f.Measured)
	f.NoTTL = float64(noTTL) / n
	f.Types = map[string]int64{}
	for t, c := range types {
		f.Types[t] = int64(math.Round(float64(c) / n * keys))
	}
	if bytesKnown {
		mean := bytes / n
		total := int64(math.Round(mean * keys))
		f.Bytes = &total
		// every key measured once: exact; else the mean's standard error
		// and the count's, added as relative errors
		if !(exact && int64(f.Measured) == f.Keys) {
			sd := math.Sqrt(max(sq/n-mean*mean, 0))
			rel := 0.0
			if mean > 0 {
				rel = sd / mean / math.Sqrt(n) * math.Sqrt(max(1-n/keys, 0))
			}
			if keys > 0 {
				rel = math.Hypot(rel, float64(f.KeysError)/zInterval/keys)
			}
			f.BytesError = int64(math.Ceil(zInterval * rel * mean * keys))
		}
	}
	return f
}

// prefixes are the group's ten most common prefixes, scaled.
func (g *liveGroup) prefixes(weights []float64) []livePrefix {
	var read, keys float64
	for i, n := range g.perNode {
		read += float64(n)
		keys += float64(n) * weights[i]
	}
	var out []livePrefix
	for p, n := range g.prefix {
		out = append(out, livePrefix{Prefix: p, Keys: int64(math.Round(float64(n) / read * keys))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Keys != out[j].Keys {
			return out[i].Keys > out[j].Keys
		}
		return out[i].Prefix < out[j].Prefix
	})
	return out[:min(10, len(out))]
}
