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
	// A value at the start of one key only, "<prefix>:{"+m+"}:lifetime"
	// beside "tier:"+m: if the value holds a tag, that key is on the tag's
	// slot whatever m is, and the other moves with m; if not, the keys are
	// related as they read. Keys that are values alone are whole keys,
	// maybe tagged.
	oneLeading := leading(x) != leading(y)
	if oneLeading && (leading(x) != "" && leading(y) != "" || len(x) < 2 || len(y) < 2 || mentions(x, leading(y)) || mentions(y, leading(x))) {
		return Undecided
	}
	if len(x) < 2 && len(y) < 2 {
		return Undecided
	}
	if oneLeading {
		return d.relateOneLeading(x, y)
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
		r, pairs, unlessEqual = relatePairs(ax, ay, 2)
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

// relatePairs relates keys whose hashed parts hold different values: on
// one slot for about 1 in 16384 pairs of them (pairs), and whenever they
// are equal too where the keys are otherwise the same text (unlessEqual).
// A tag that is one value that may be empty, "cart:{"+user+"}", is
// related both ways, as relateEitherTag does: empty, the whole key is
// hashed; not, the value is the tag. The weaker answer holds. splits
// bounds how many such values are split (one in each key).
func relatePairs(ax, ay Key, splits int) (r Relation, pairs, unlessEqual bool) {
	if r, pairs, unlessEqual, ok := oneTagTemplate(ax, ay); ok {
		return r, pairs, unlessEqual
	}
	if splits > 0 {
		id, ok := soleTagValue(ax)
		if !ok {
			id, ok = soleTagValue(ay)
		}
		if ok {
			empty, pe, ue := relateSplit(ax.withValue(id, false), ay.withValue(id, false), splits-1)
			set, ps, us := relateSplit(ax.withValue(id, true), ay.withValue(id, true), splits-1)
			if (empty != Different && empty != NearSure) || (set != Different && set != NearSure) {
				return Undecided, false, false
			}
			if empty == Different && set == Different {
				return Different, false, false
			}
			return NearSure, pe || ps, ue || us
		}
	}
	hx, okX := ax.Hashed()
	hy, okY := ay.Hashed()
	if !okX || !okY || !otherValues(hx, hy) {
		return Undecided, false, false
	}
	equal := Relate(ax, sameValuesAs(ay, ax))
	if equal == Undecided {
		// Equal values may still part the keys near-surely: one hashed
		// whole, the other its tag ("draft:"+id beside "{"+id+"}:rules").
		if r := relateEitherTag(ax, sameValuesAs(ay, ax)); r == Different || r == NearSure {
			equal = NearSure
		}
	}
	switch {
	case sameNames(hx, hy) && (equal == Same || equal == Undecided):
		return Undecided, false, false // written the same way: most likely one value, read twice
	case sameNames(hx, hy):
		return NearSure, false, false // one value, or two: the keys differ either way
	case equal == Same:
		return NearSure, true, true
	}
	return NearSure, true, false
}

// oneTagTemplate relates keys that are one template over two values, each
// the whole tag: "sess:{"+a+"}" and "sess:{"+b+"}". Equal values (both
// empty among them) share the slot; two non-empty ones are two tags, one
// empty and one not a whole key beside a tag: near-sure, unless the
// values are equal. Split one value at a time instead, the case where
// both are empty would read as one slot for every value.
func oneTagTemplate(ax, ay Key) (r Relation, pairs, unlessEqual, ok bool) {
	ix, okX := soleTagValue(ax)
	iy, okY := soleTagValue(ay)
	if !okX || !okY || rootID(ix) == rootID(iy) || Relate(ax, sameValuesAs(ay, ax)) != Same {
		return Undecided, false, false, false
	}
	if showOf(ax, ix) == showOf(ay, iy) {
		return Undecided, false, false, true // written the same way: most likely one value, read twice
	}
	return NearSure, true, true, true
}

// showOf is how the value id is written in the key.
func showOf(k Key, id string) string {
	for _, p := range k {
		if p.Unknown && p.ID == id {
			return p.Show
		}
	}
	return ""
}

// relateSplit relates one case of a split tag: proved or near-sure as
// keys, else as pairs of values.
func relateSplit(x, y Key, splits int) (Relation, bool, bool) {
	if r := Relate(x, y); r != Undecided {
		return r, false, false
	}
	return relatePairs(x, y, splits)
}

// leading is the id of the value at the start of a key that may hold a
// brace, "" when the key starts with known text or a value that cannot.
func leading(k Key) string {
	if len(k) == 0 || !k[0].Unknown || k[0].NoBrace {
		return ""
	}
	return k[0].ID
}

// relateOneLeading relates keys of which one starts with a value the
// other does not hold. If the value holds a tag, its key is on that tag's
// slot for every value of the rest, while the other key's slot moves with
// its own values: near-sure apart. If not, the keys are related as they
// read with the value taken to hold no brace. Beside a constant key, the
// value alone would decide: nothing is claimed.
func (d *Difference) relateOneLeading(x, y Key) Relation {
	if !varies(x) || !varies(y) {
		return Undecided
	}
	if leading(x) != "" {
		x = x.withLeadingNamed()
	} else {
		y = y.withLeadingNamed()
	}
	r := Relate(x, y)
	if r == Undecided {
		r = d.relateAssumingIDs(x, y)
	}
	if r == Undecided {
		r = d.relateValues(x, y)
	}
	if r != Different && r != NearSure {
		return Undecided
	}
	return NearSure
}

// withLeadingNamed is k with its leading value taken to hold no brace.
func (k Key) withLeadingNamed() Key {
	out := append(Key(nil), k...)
	out[0].NoBrace = true
	return out
}

// mentions: a part of k is the value of that id ("" is none).
func mentions(k Key, id string) bool {
	if id == "" {
		return false
	}
	return slices.ContainsFunc(k, func(p Part) bool { return p.Unknown && p.ID == id })
}

// varies: the key holds a value besides a leading one.
func varies(k Key) bool {
	for i, p := range k {
		if p.Unknown && (i > 0 || leading(k) == "") {
			return true
		}
	}
	return false
}

// claimable: no part of the key is a value the evaluator gave up on, or one
// that may print braces it does not place; and no parameter of the
// function (or of one enclosing it) is the whole key, its start, or a list
// its callers fill (a join of a slice parameter, each of its elements):
// those are its callers' to fill, and a caller may tag them
// ("{user}:"+name). A parameter after text of the function's own is an id
// like any other value: two of them, "cart:"+userID and "order:"+orderID,
// are judged where the keys are built.
func claimable(k Key) bool {
	for i, p := range k {
		if !p.Unknown {
			continue
		}
		if p.Braces || p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many") {
			return false
		}
		if p.Given && i == 0 || p.Param > 0 && (p.Join || p.Elem > 0) {
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
	out = k
	copied := false
	for i, p := range k {
		if !p.Unknown || p.NoBrace {
			continue
		}
		if !copied {
			out, copied = append(Key(nil), k...), true // copied on the first change
		}
		out[i].NoBrace = true
		if i == 0 {
			leading = append(leading, p.Show)
		} else {
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
			if p.Base != "" && p.Base == q.Base && (p.ID != q.ID || p.Offset != q.Offset) {
				return false // t and t-1: not two free values
			}
		}
	}
	for _, p := range pa {
		for _, q := range pb {
			if p.ID != q.ID && rootID(p.ID) == rootID(q.ID) {
				return false // name and strings.ToLower(name): maybe the same text
			}
		}
	}
	return !slices.EqualFunc(pa, pb, func(p, q Part) bool { return p.ID == q.ID })
}

// rootID is the value a part is written from: the id inside the
// functions and verbs that write it (fn:strings.ToLower(v1), %d(v1) and
// v1 are all v1's text), so that two ways of writing one value are never
// taken for two values.
func rootID(id string) string {
	for strings.HasSuffix(id, ")") {
		open := strings.IndexByte(id, '(')
		if open < 0 {
			return id
		}
		head := id[:open]
		if !strings.HasPrefix(head, "fn:") && !strings.HasPrefix(head, "%") && head != "time" {
			return id
		}
		id = id[open+1 : len(id)-1]
		if head == "time" {
			if comma := strings.LastIndexByte(id, ','); comma >= 0 {
				id = id[:comma]
			}
		}
	}
	return id
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
