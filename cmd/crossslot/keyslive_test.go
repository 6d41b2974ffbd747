package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/live"
)

// A key goes to the most specific family its name matches, else to a
// family's old name (its template without the tag's braces), else to
// the foreign keys; a template without fixed text matches nothing.
func TestLiveMatcher(t *testing.T) {
	var families []*keyFamily
	for _, tpl := range []string{"user:{<id>}:profile", "user:{<id>}:<field>", "<key>", "feed:{global}:<id>", "order:{<user>}:<n>", "<prefix>:{<id>}", "cfg:flags", "user:<id>:profile"} {
		families = append(families, &keyFamily{Template: tpl})
	}
	m := newFamilyMatcher(families, []oldName{{"profile:<id>", "user:{<id>}:profile"}})
	if len(m.unmatchable) != 2 || m.unmatchable[0] != "<key>" || m.unmatchable[1] != "<prefix>:{<id>}" {
		t.Errorf("unmatchable %q", m.unmatchable)
	}
	for key, want := range map[string]string{
		"user:{7}:profile":   "user:{<id>}:profile", // both user families match; the more fixed text wins
		"user:{7}:settings":  "user:{<id>}:<field>",
		"user:{a:b}:profile": "user:{<id>}:profile",
		"user:7:profile":     "user:<id>:profile", // a family of the code, so not an old name
		"feed:{global}:99":   "feed:{global}:<id>",
		"feed:global:99":     "old name feed:global:<id>",
		"order:{u1}:3":       "order:{<user>}:<n>",
		"order:u1:3":         "old name order:<user>:<n>",
		"cfg:flags":          "cfg:flags",
		"cfg:flags:2":        "foreign",
		"legacy:cache:1":     "foreign",
		"feed:{global}":      "foreign",
		"":                   "foreign",
	} {
		if got := m.groups[m.match(key)]; got != want {
			t.Errorf("%q goes to %q, want %q", key, got, want)
		}
	}
	for tpl, want := range map[string]string{"user:{<id>}:profile": "user:<id>:profile", "{<id>}:x": "<id>:x", "a:{}:b": "", "plain:<id>": "", "a{b": ""} {
		if got := oldTemplate(tpl); got != want {
			t.Errorf("oldTemplate(%q) = %q, want %q", tpl, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("  slot 1 on 127.0.0.1:7000: 12 keys: order:{<user>}:<n> 8, user:{<id>}:settings 4, user:{<id>}:profile 3", 60, "    ")
	want := "  slot 1 on 127.0.0.1:7000: 12 keys: order:{<user>}:<n> 8,\n    user:{<id>}:settings 4, user:{<id>}:profile 3\n"
	if got != want {
		t.Errorf("wrap:\n%s\nwant:\n%s", got, want)
	}
}

// TestReadMethod: the live report's header says how the names were read,
// and what cut a read short: the time limit (-live-timeout) with what was
// read, or a node, never the budget unless the nodes hold more keys than
// it; before any node said how many keys it holds, no count of keys.
func TestReadMethod(t *testing.T) {
	o := liveOptions{budget: 1000, timeout: time.Millisecond}
	limit := fmt.Errorf("%w: connecting to a:1: i/o timeout", live.ErrTimeLimit)
	for _, c := range []struct {
		name     string
		reads    []*live.NodeRead
		headline string
	}{
		{"every key", []*live.NodeRead{{Total: 50, Sized: true, Read: 50, Complete: true}},
			"50 keys; every key read once (SCAN COUNT 100 on each node)"},
		{"time limit before DBSIZE", []*live.NodeRead{{Err: limit}},
			"stopped at -live-timeout 1ms before a node said how many keys it holds: no key read"},
		{"time limit before one node's DBSIZE", []*live.NodeRead{{Total: 500, Sized: true, Read: 100, Err: live.ErrTimeLimit}, {Err: limit}},
			"500 keys on the nodes that said (1 of 2 did not); stopped at -live-timeout 1ms with 100 of them read (SCAN COUNT 100 on each node), a scan cut short, "},
		{"time limit mid-scan", []*live.NodeRead{{Total: 500, Sized: true, Read: 100, Err: live.ErrTimeLimit}},
			"500 keys; stopped at -live-timeout 1ms with 100 of them read (SCAN COUNT 100 on each node), a scan cut short, "},
		{"time limit mid-sample", []*live.NodeRead{{Total: 5000, Sized: true, Read: 300, Err: live.ErrTimeLimit}},
			"5000 keys; stopped at -live-timeout 1ms with 300 of them read, of a uniform sample of -live-budget 1000 (RANDOMKEY, "},
		{"sampled", []*live.NodeRead{{Total: 5000, Sized: true, Read: 1000}},
			"5000 keys; more than -live-budget 1000: a uniform sample of 1000 (RANDOMKEY, "},
		{"node lost mid-scan", []*live.NodeRead{{Total: 500, Sized: true, Read: 200, Err: errors.New("connection reset")}},
			"500 keys; 200 of them read (SCAN COUNT 100 on each node) before a node stopped answering, a scan cut short, "},
	} {
		r := &liveReport{URL: "redis://a:1", Method: readMethod(c.reads, o)}
		for _, n := range c.reads {
			r.Keys += n.Total
			r.Nodes = append(r.Nodes, liveNode{Keys: n.Total, Unsized: !n.Sized})
		}
		if got := liveHeadline(r)[1]; !strings.HasPrefix(got, c.headline) {
			t.Errorf("%s: the header says\n%s\nwant it to start\n%s", c.name, got, c.headline)
		}
	}
}
