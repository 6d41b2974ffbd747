package keymodel

import "testing"

// TestGuard pins how a prefix's two ways pair: a key taken only when ns is
// empty never meets one that holds ns as never empty, and the guard
// survives concatenation onto known text.
func TestGuard(t *testing.T) {
	ns := Part{ID: "ns", Show: "ns"}
	a := Part{ID: "a", Show: "a", NoBrace: true, NonEmpty: true}
	b := Part{ID: "b", Show: "b", NoBrace: true, NonEmpty: true}
	bare := func(p Part) Key { return Concat(TextKey("sess:"), UnknownKey(p)).Guarded(Guard{ID: "ns"}) }
	prefixed := func(p Part) Key {
		return Concat(UnknownKey(ns), TextKey(":sess:"), UnknownKey(p)).NonEmptyValue("ns")
	}
	if Compatible(bare(a), prefixed(b)) || Compatible(prefixed(a), bare(b)) {
		t.Error("a key taken when ns is empty meets one where ns is not")
	}
	if !Compatible(bare(a), bare(b)) || !Compatible(prefixed(a), prefixed(b)) {
		t.Error("two keys of one way do not meet")
	}
	other := Concat(UnknownKey(Part{ID: "other", Show: "other", NonEmpty: true}), TextKey(":sess:"), UnknownKey(b))
	if !Compatible(bare(a), other) {
		t.Error("a guard on ns excludes a key of another prefix")
	}
	if plain := Concat(UnknownKey(ns), TextKey(":sess:"), UnknownKey(b)); !Compatible(bare(a), plain) {
		t.Error("a guard on ns excludes a key where ns may be empty")
	}
	if g := Concat(TextKey("x:"), bare(a)).Guard(); g.ID != "ns" {
		t.Errorf("the guard is lost when the key follows known text: %+v", g)
	}
	if g := Concat(bare(a), TextKey("")).Guard(); g.ID != "ns" {
		t.Errorf("the guard is lost after empty text: %+v", g)
	}
	elem := ElementPart(Part{ID: "id", Show: "ids[i]"}, "ids")
	family := Arg{Alts: []Key{bare(elem), prefixed(elem)}, Family: "elements of ids"}
	if _, ok := Differ(family, family.OtherElement(), Claims{NearSure: true, Values: true}); !ok {
		t.Error("two elements' keys under one prefix are not apart")
	}
}
