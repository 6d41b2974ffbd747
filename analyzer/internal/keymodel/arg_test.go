package keymodel

import "testing"

// Keys of two lists of one φ never meet; each list keeps the keys of no
// list beside its own.
func TestLists(t *testing.T) {
	a := Arg{Alts: []Key{TextKey("a:1")}, Apart: Alternative{Of: "phi", Is: 1}}
	b := Arg{Alts: []Key{TextKey("b:1")}, Apart: Alternative{Of: "phi", Is: 2}}
	dest := Arg{Alts: []Key{TextKey("dest")}}
	if _, ok := Differ(a, b, Claims{}); ok {
		t.Errorf("keys of two lists of one φ differ: they never meet")
	}
	if _, ok := Differ(dest, b, Claims{}); !ok {
		t.Errorf("a key of no list and a list's key do not differ")
	}
	if r := Unproved(a, b); r != "" {
		t.Errorf("keys of two lists of one φ unproved: %s", r)
	}
	other := b
	other.Apart.Of = "another"
	if _, ok := Differ(a, other, Claims{}); !ok {
		t.Errorf("keys of the lists of two φs do not differ")
	}
	lists, ok := Lists([]Arg{dest, a, b})
	if !ok || len(lists) != 2 || len(lists[0]) != 2 || len(lists[1]) != 2 || lists[0][1].Apart.Of != "" || lists[1][1].Alts[0].String() != "b:1" {
		t.Errorf("Lists = %v, %v; want [dest a:1] [dest b:1], unmarked", lists, ok)
	}
	if _, ok := Lists([]Arg{a, other}); ok {
		t.Errorf("Lists of two φs' alternatives is ok")
	}
}
