package main

import (
	"testing"
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
