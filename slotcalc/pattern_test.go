package slotcalc

import "testing"

// TestPatternSlot follows the server's patternHashSlot (cluster.c, Redis
// 7.4 and Valkey 8): a tag closed before a wildcard decides; a wildcard or
// escape first, or inside an open tag, matches keys on any slot; no
// wildcard at all is one key.
func TestPatternSlot(t *testing.T) {
	for _, c := range []struct {
		pattern string
		key     string // a key the pattern's keys share a slot with; "" for any slot
	}{
		{"{user:1}:w_*", "{user:1}:ids"},
		{"{user:1}w_*", "user:1"},
		{"w_*", ""},
		{"*{user:1}", ""},
		{"{user:*}", ""},
		{"{user:1\\}}:*", ""},
		{"\\{a}*", ""},
		{"a?{b}", ""},
		{"[ab]{c}", ""},
		{"weight", "weight"}, // no wildcard: the whole pattern is the key
		{"{}x{a}*", ""},      // an empty tag: no tag, and the wildcard matches any slot
		{"{}x{a}", "{}x{a}"}, // an empty tag and no wildcard: hashed whole, as the key is
		{"#", "#"},           // GET # is hashed as a key name (Redis 7.4.0/7.4.1, Valkey 8.0)
		{"x{a}y{b}*", "{a}"}, // the first tag decides
		{"{a{b}*", "a{b"},    // the first '{' opens the tag
		{"}{a}*", "a"},       // a '}' before any '{' is a byte
	} {
		slot, ok := PatternSlot(c.pattern)
		switch {
		case c.key == "" && ok:
			t.Errorf("PatternSlot(%q) = %d; want any slot", c.pattern, slot)
		case c.key != "" && (!ok || slot != Slot(c.key)):
			t.Errorf("PatternSlot(%q) = %d, %v; want %d (the slot of %q)", c.pattern, slot, ok, Slot(c.key), c.key)
		}
	}
}
