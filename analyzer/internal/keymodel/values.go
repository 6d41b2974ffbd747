package keymodel

import (
	"slices"
	"strings"
)

// Two claims go beyond an id's text (Claims.Values):
//
//   - A value at the start of two keys, name and name+":c", or
//     key+":lock" and key+":empty": the keys share a slot only when the
//     value holds a hash tag of its own, which names given by callers
//     seldom do. The case is made as for an id, and says "unless name
//     holds a hash tag".
//   - Keys of different values, "cart:"+userID+":items" and
//     "order:"+orderID+":items", or "stock:"+from+":"+sku and
//     "stock:"+to+":"+sku: their slots meet for about 1 in 16384 pairs of
//     values, or, where the keys are the same text for equal values, also
//     whenever the values are equal, which two differently named values
//     are taken not to be.
//
// Neither is made for a function's parameters, which its callers fill in,
// nor for a key that is a value alone, with no text of its own.

// relateValues relates two keys with the claims of Values, recording in d
// what they rest on; Undecided when they do not apply.
func (d *Difference) relateValues(x, y Key) Relation {
	if !claimable(x) || !claimable(y) {
		return Undecided
	}
	if leading(x) != leading(y) || len(x) < 2 && len(y) < 2 {
		return Undecided // a value at the start of one key only, or keys that are values alone: whole keys, maybe tagged
	}
	if leading(x) != "" && x[0].Configured {
		return Undecided // a prefix users configure: tagged on purpose where they run a cluster
	}
	ax, nx, lx := x.assumeAllNamed()
	ay, ny, ly := y.assumeAllNamed()
	r := relateEitherTag(ax, ay)
	pairs, unlessEqual := false, false
	if r == Undecided {
		if (!hasText(x) || !hasText(y)) && leading(x) == "" {
			return Undecided // a value alone is a whole key, not an id; after a shared prefix it is one
		}
		hx, okX := ax.Hashed()
		hy, okY := ay.Hashed()
		if !okX || !okY || !otherValues(hx, hy) {
			return Undecided
		}
		equal := Relate(ax, sameValuesAs(ay, ax))
		switch {
		case sameNames(hx, hy) && (equal == Same || equal == Undecided):
			return Undecided // written the same way: most likely one value, read twice
		case sameNames(hx, hy):
			r = NearSure // one value, or two: the keys differ either way
		case equal == Same:
			r, pairs, unlessEqual = NearSure, true, true
		default:
			r, pairs = NearSure, true
		}
	}
	if r != Different && r != NearSure {
		return Undecided
	}
	if len(lx)+len(ly) == 0 && !pairs {
		return Undecided // an id alone: relateAssumingIDs's case
	}
	for _, name := range append(nx, ny...) {
		if !slices.Contains(d.Assumed, name) {
			d.Assumed = append(d.Assumed, name)
		}
	}
	for _, name := range append(lx, ly...) {
		if !slices.Contains(d.Leading, name) {
			d.Leading = append(d.Leading, name)
		}
	}
	d.Pairs = d.Pairs || pairs
	d.UnlessEqual = d.UnlessEqual || unlessEqual
	if r == Different && len(lx)+len(ly) > 0 {
		return Different // for every tagless value: the message says unless
	}
	return NearSure
}

// leading is the id of the value at the start of a key that may hold a
// brace, "" when the key starts with known text or a value that cannot.
func leading(k Key) string {
	if len(k) == 0 || !k[0].Unknown || k[0].NoBrace {
		return ""
	}
	return k[0].ID
}

// claimable: no part of the key is a parameter (its callers' to fill), a
// value the evaluator gave up on, or one that may print braces it does not
// place.
func claimable(k Key) bool {
	for _, p := range k {
		if p.Unknown && (p.Param > 0 || p.Braces || p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many")) {
			return false
		}
	}
	return true
}

// hasText: the key has known text of its own.
func hasText(k Key) bool {
	for _, p := range k {
		if !p.Unknown && p.Text != "" {
			return true
		}
	}
	return false
}

// assumeAllNamed takes every unknown value of the key to hold no brace:
// the value at its start (named in leading), and the others, ids (named
// in ids).
func (k Key) assumeAllNamed() (out Key, ids, leading []string) {
	out = append(Key(nil), k...)
	for i, p := range out {
		switch {
		case !p.Unknown || p.NoBrace:
		case i == 0:
			out[i].NoBrace = true
			leading = append(leading, p.Show)
		default:
			out[i].NoBrace = true
			ids = append(ids, p.Show)
		}
	}
	return out, ids, leading
}

// assumeAll is the key with every value taken to hold no brace.
func (k Key) assumeAll() (Key, bool) {
	out, ids, leading := k.assumeAllNamed()
	return out, len(ids)+len(leading) > 0
}

// otherValues: the hashed parts hold different values, none of them
// offsets of one another (t, t-1), and each at least one.
func otherValues(a, b Key) bool {
	_, pa := a.segments()
	_, pb := b.segments()
	if len(pa) == 0 || len(pb) == 0 {
		return false
	}
	for _, p := range pa {
		for _, q := range pb {
			if p.Base != "" && p.Base == q.Base {
				return false
			}
		}
	}
	return !slices.EqualFunc(pa, pb, func(p, q Part) bool { return p.ID == q.ID })
}

// sameValuesAs is b with its unknown values, in order, taken to be a's: the
// keys as they are when the values are equal. Parts b has more of stay.
func sameValuesAs(b, a Key) Key {
	_, pa := a.segments()
	out := append(Key(nil), b...)
	n := 0
	for i, p := range out {
		if p.Unknown && n < len(pa) {
			out[i].ID, out[i].Base, out[i].Offset = pa[n].ID, pa[n].Base, pa[n].Offset
			n++
		}
	}
	return out
}

// sameNames: the values of the two hashed parts are written the same way
// (the same expression read twice).
func sameNames(a, b Key) bool {
	_, pa := a.segments()
	_, pb := b.segments()
	return slices.EqualFunc(pa, pb, func(p, q Part) bool { return p.Show == q.Show && p.Show != "…" })
}
