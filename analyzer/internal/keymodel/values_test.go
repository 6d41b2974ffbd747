package keymodel

import (
	"slices"
	"testing"
)

// TestValuesApart: keys of two entities each hold a value the other does
// not; one value written two ways (v and strings.ToLower(v)) is one, and
// so may be the same text; t and t-1 are two.
func TestValuesApart(t *testing.T) {
	v := func(id, show string) Key { return UnknownKey(Part{ID: id, Show: show}) }
	at := func(base string, offset int64, show string) Key {
		return UnknownKey(Part{ID: "%d(" + show + ")", Show: show, Base: base, Offset: offset})
	}
	shows := func(ps []Part) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Show)
		}
		return out
	}
	for _, c := range []struct {
		name                 string
		a, b                 Key
		onlyA, onlyB, shared []string
	}{
		{"two values of one template", Concat(TextKey("friends:"), v("v1", "a")), Concat(TextKey("friends:"), v("v2", "b")), []string{"a"}, []string{"b"}, nil},
		{"one value", Concat(TextKey("order:"), v("v1", "id"), TextKey(":items")), Concat(TextKey("order:"), v("v1", "id"), TextKey(":total")), nil, nil, []string{"id"}},
		{"one value written two ways", Concat(TextKey("u:"), v("v1", "name")), Concat(TextKey("u:"), v("fn:strings.ToLower(v1)", "strings.ToLower(name)")), nil, nil, []string{"name"}},
		{"an offset of one base", Concat(TextKey("b:"), at("t", 0, "t")), Concat(TextKey("b:"), at("t", -1, "t-1")), []string{"t"}, []string{"t-1"}, nil},
		{"a value beside a constant key", Concat(TextKey("hot:cat:"), v("v1", "c")), TextKey("hot:global"), []string{"c"}, nil, nil},
		{"values the evaluator gave up on", Concat(TextKey("x:"), v("too-many", "…")), Concat(TextKey("x:"), v("too-many", "…")), []string{"…"}, []string{"…"}, nil},
	} {
		onlyA, onlyB, shared := ValuesApart(c.a, c.b)
		if !slices.Equal(shows(onlyA), c.onlyA) || !slices.Equal(shows(onlyB), c.onlyB) || !slices.Equal(shows(shared), c.shared) {
			t.Errorf("%s: ValuesApart(%s, %s) = %v, %v, %v; want %v, %v, %v", c.name, c.a, c.b,
				shows(onlyA), shows(onlyB), shows(shared), c.onlyA, c.onlyB, c.shared)
		}
	}
}
