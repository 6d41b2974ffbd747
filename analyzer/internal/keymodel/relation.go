package keymodel

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

// The key relation: whether two keys, or two arguments' alternatives, share
// a slot, and on what the answer rests. Relate proves it of two keys by
// their texts and values (the same template, CRC16's linearity, near-sure
// differences); the claims of Values relate different values; Differ and
// Unproved give the checks' verdicts on two arguments, over the pairs of
// alternatives that can meet (Pairs). How a verdict is worded is in
// wording.go; what a key hashes is in tag.go.

// A Relation is what the analyzer can say of two keys' slots.
type Relation int

// Relate compares the slots of two keys. Fully known keys are compared by
// slot. Keys with unknown parts are compared only when their hashed parts
// (tags, or whole keys) hold the same unknown parts, the same values, in the
// same order:
//
//   - identical templates share the slot;
//   - templates whose known texts have equal lengths and differ in one
//     place only are decided by the linearity of CRC16 (see linearProof);
//   - any other difference in the text around the shared values puts them
//     on different slots for all but about 1 in 16384 values, and so does
//     a fixed slot beside a hashed part that holds a value.
//
// Keys with different unknown parts are not related.
func Relate(a, b Key) Relation {
	if a.sameValue(b) {
		return Same // whatever it holds, one key is on one slot
	}
	ha, okA := a.Hashed()
	hb, okB := b.Hashed()
	if !okA || !okB {
		return Undecided
	}
	sa, knownA := a.Slot()
	sb, knownB := b.Slot()
	switch {
	case knownA && knownB:
		if sa == sb {
			return Same
		}
		return Different
	case knownA != knownB:
		// One slot is fixed and the other hashes a value: they meet for
		// about 1 in 16384 values.
		return NearSure
	}
	segA, partsA := ha.segments()
	segB, partsB := hb.segments()
	if len(partsA) != len(partsB) || len(partsA) == 0 {
		return Undecided
	}
	distinct := false // some value differs from its counterpart (t, t-1)
	for i := range partsA {
		p, q := partsA[i], partsB[i]
		switch {
		case p.ID == q.ID && p.Offset == q.Offset:
		case p.Base != "" && p.Base == q.Base && p.Offset != q.Offset:
			distinct = true
		case p.ID == "%q("+q.ID+")" || q.ID == "%q("+p.ID+")":
			distinct = true // a value and its quoted form: never the same text
		default:
			return Undecided
		}
	}
	if distinct {
		// Different text where the values stand, whatever surrounds it:
		// one slot for about 1 in 16384 values.
		return NearSure
	}
	differing := -1
	aligned := true
	for i := range segA {
		if segA[i] == segB[i] {
			continue
		}
		if len(segA[i]) != len(segB[i]) || differing >= 0 {
			aligned = false
		}
		differing = i
	}
	switch {
	case differing < 0:
		return Same
	case aligned:
		return linearProof(segA[differing], segB[differing], differing < len(segA)-1)
	}
	return NearSure
}

// ShareAValue reports keys built from one unknown value, as one entity's
// keys are ("user:<id>:a", "user:<id>:b").
func ShareAValue(a, b Key) bool {
	for _, p := range a {
		if !p.Unknown || p.ID == "" || p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many") {
			continue
		}
		for _, q := range b {
			if q.Unknown && q.ID == p.ID {
				return true
			}
		}
	}
	return false
}

// sameValue reports keys that are one value: the same text and the same
// unknown values in the same order. A part that stands for values the
// evaluator gave up on (too many alternatives) is no value of its own.
func (k Key) sameValue(o Key) bool {
	if len(k) != len(o) {
		return false
	}
	for i := range k {
		p, q := k[i], o[i]
		if p.Unknown != q.Unknown || p.Text != q.Text || p.ID != q.ID || p.Offset != q.Offset ||
			p.Unknown && (p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many")) {
			return false
		}
	}
	return true
}

// segments splits a key into its known texts around its unknown parts (one
// more text than parts, "" where two parts touch) and the parts.
func (k Key) segments() (texts []string, unknown []Part) {
	texts = []string{""}
	for _, p := range k {
		if p.Unknown {
			unknown = append(unknown, p)
			texts = append(texts, "")
			continue
		}
		texts[len(texts)-1] += p.Text
	}
	return texts, unknown
}

// linearProof decides two hashed parts that are the same but for one
// known text, a in one and b in the other, of equal length. CRC16-XMODEM
// (initial value 0, no final XOR) is linear over GF(2): for messages of
// equal length, crc(x) XOR crc(y) = crc(x XOR y). Here x XOR y is zero but
// for D = a XOR b, followed by as many zero bytes as the rest of the key
// (shifted returns true when unknown parts follow, so that count depends on
// their lengths). Leading zero bytes do not change the CRC; each trailing
// one multiplies it by x^8 modulo the polynomial. The slots, the low 14
// bits, differ by the low 14 bits of crc(D)·x^(8n): the keys are on
// different slots for every value when that is never zero, on one slot
// when it always is, and otherwise on different slots for all lengths but
// some (near-sure).
func linearProof(a, b string, shifted bool) Relation {
	d := make([]byte, len(a))
	for i := range d {
		d[i] = a[i] ^ b[i]
	}
	c := slotcalc.CRC16(d)
	if !shifted {
		if slotcalc.SlotOfCRC16(c) == 0 {
			return Same
		}
		return Different
	}
	// x is invertible modulo the polynomial, so multiplying by x^8 permutes
	// the 65536 residues: walking c's cycle meets every n.
	zero := []byte{0}
	collides, separates := false, false
	for x, steps := c, 0; steps <= 1<<16; steps++ {
		if slotcalc.SlotOfCRC16(x) == 0 {
			collides = true
		} else {
			separates = true
		}
		if x = slotcalc.UpdateCRC16(x, zero); x == c {
			break
		}
	}
	switch {
	case !collides:
		return Different
	case !separates:
		return Same
	}
	return NearSure
}

const (
	Undecided Relation = iota
	Same               // on one slot for every value
	Different          // on different slots for every value
	NearSure           // on different slots for all but about 1 in 16384 values
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

// Unproved says why two keys are not proved to share a slot, "" when they
// are: every alternative of one on the slot of every alternative of the
// other.
func Unproved(x, y Arg) string {
	if !x.Meets(y) {
		return "" // never in one command
	}
	for kx, ky := range Pairs(x, y) {
		if Relate(kx, ky) == Same {
			continue
		}
		for _, k := range []Key{kx, ky} {
			if _, ok := k.Hashed(); !ok {
				if k.EmptyTagPossible() {
					return fmt.Sprintf("the hash tag of %s may be empty", k.Quoted())
				}
				return fmt.Sprintf("%s may hold a brace, so its hash tag is not known", k.Quoted())
			}
		}
		return fmt.Sprintf("%s and %s hash different values", kx.Quoted(), ky.Quoted())
	}
	return ""
}

// SameTagTemplate reports keys whose tags are built from the same parts:
// the first '{' is known text in both (nothing before it may hold a brace),
// and the parts up to the first known '}' after it are the same text and the
// same values. Whatever the values, both tags are then the same text, so the
// keys share a slot — unless that text is empty (a value starting with '}',
// or empty values), the degenerate case strict mode reports.
func SameTagTemplate(x, y Arg) bool {
	for a, b := range Pairs(x, y) {
		ta, okA := a.tagTemplate()
		tb, okB := b.tagTemplate()
		if !okA || !okB || len(ta) != len(tb) {
			return false
		}
		for i := range ta {
			if ta[i].Unknown != tb[i].Unknown || ta[i].Text != tb[i].Text || (ta[i].Unknown && ta[i].ID != tb[i].ID) {
				return false
			}
		}
	}
	return len(x.Alts) > 0 && len(y.Alts) > 0
}

// SameAssumingNoBrace reports keys on one slot for every value once their
// values are taken to hold no brace and not to be empty: "{"+k+"}:count"
// beside k, for a k that holds no tag.
func SameAssumingNoBrace(x, y Arg) bool {
	for a, b := range Pairs(x, y) {
		if Relate(a.plainValues(), b.plainValues()) != Same {
			return false
		}
	}
	return len(x.Alts) > 0 && len(y.Alts) > 0
}

// plainValues is the key with every value taken to hold no brace and not
// to be empty.
func (k Key) plainValues() Key {
	assumed, _ := k.assumeAll()
	out := append(Key(nil), assumed...) // assumeAll may give k itself
	for i := range out {
		if out[i].Unknown {
			out[i].NonEmpty = true
		}
	}
	return out
}

// A Difference is the analyzer's case that two keys are on different slots.
type Difference struct {
	A, B         Key // the first alternatives, for messages
	SlotA, SlotB int // their slots, when known
	SlotsKnown   bool
	NearSure     bool // different for all but about 1 in 16384 values
	// Assumed names the values taken to hold no brace (see assumeIDs), so
	// that the case holds only if they do.
	Assumed []string
	// Leading names the values at the start of a key taken to hold no
	// brace (see Claims.Values): the case holds unless they hold a tag.
	Leading []string
	// Pairs: the keys hash different values, and are on one slot only for
	// about 1 in 16384 pairs of them; UnlessEqual: or when they are equal.
	Pairs, UnlessEqual bool
	values             string // the values the slots depend on, for messages
}

// Claims say what cases Differ may make besides proofs for every value.
type Claims struct {
	// NearSure: keys on different slots for all but about 1 in 16384 of
	// their values, an id that follows known text taken to hold no brace.
	NearSure bool
	// Values: keys of different values, or of one value at their start,
	// which may hold a hash tag (see relateValues).
	Values bool
}

// Differ says whether every alternative of x is on another slot than every
// alternative of y: proved for every value, or near-sure as the claims
// allow.
func Differ(x, y Arg, c Claims) (Difference, bool) {
	if len(x.Alts) == 0 || len(y.Alts) == 0 || !x.Meets(y) {
		return Difference{}, false
	}
	d := Difference{A: x.Alts[0], B: y.Alts[0]}
	met := false
	for kx, ky := range Pairs(x, y) {
		if !met {
			d.A, d.B, met = kx, ky, true // the first pair that meets, for messages
		}
		r := Relate(kx, ky)
		if r == Undecided && c.NearSure {
			r = d.relateAssumingIDs(kx, ky)
		}
		if r == Undecided && c.Values {
			r = d.relateValues(kx, ky)
		}
		switch r {
		case Different:
		case NearSure:
			if !c.NearSure {
				return Difference{}, false
			}
			d.NearSure = true
		default:
			return Difference{}, false
		}
	}
	if !met {
		return Difference{}, false
	}
	d.SlotA, d.SlotsKnown = d.A.Slot()
	if d.SlotsKnown {
		d.SlotB, d.SlotsKnown = d.B.Slot()
	}
	a, _ := d.A.assumeAll()
	b, _ := d.B.assumeAll()
	d.values = valuesOfBoth(a, b, d.Pairs)
	return d, true
}

// relateAssumingIDs relates two keys taking their ids to hold no brace (see
// assumeIDs); a case made so is near-sure at best, and names what it
// assumed. It is Undecided where no id was assumed or the keys stay apart.
func (d *Difference) relateAssumingIDs(x, y Key) Relation {
	ax, nx := x.assumeIDs()
	ay, ny := y.assumeIDs()
	if len(nx)+len(ny) == 0 {
		return Undecided
	}
	r := relateEitherTag(ax, ay)
	if r != Different && r != NearSure {
		return Undecided
	}
	for _, name := range append(nx, ny...) {
		if !slices.Contains(d.Assumed, name) {
			d.Assumed = append(d.Assumed, name)
		}
	}
	return r
}

// relateEitherTag relates two keys, one of which has a tag that is one value
// that may be empty ("log:{"+ch+"}"): when it is empty, "{}" makes the whole
// key hashed; when it is not, the value is the tag. The keys are related in
// both cases (the value the same in both keys) and the weaker answer holds.
func relateEitherTag(x, y Key) Relation {
	r := Relate(x, y)
	if r != Undecided {
		return r
	}
	id, ok := soleTagValue(x)
	if !ok {
		if id, ok = soleTagValue(y); !ok {
			return Undecided
		}
	}
	set := Relate(x.withValue(id, true), y.withValue(id, true))
	if offsetsDiffer(x, y, id) && (set == Different || set == NearSure) {
		// Two elements of a loop (t and t+1): both empty is both equal,
		// which two different elements are taken not to be.
		return NearSure
	}
	empty := Relate(x.withValue(id, false), y.withValue(id, false))
	switch {
	case empty == Different && set == Different:
		return Different
	case (empty == Different || empty == NearSure) && (set == Different || set == NearSure):
		return NearSure
	}
	return Undecided
}

// offsetsDiffer reports the value id in both keys as two different values
// of one base: a loop's element in two iterations.
func offsetsDiffer(x, y Key, id string) bool {
	for _, p := range x {
		for _, q := range y {
			if p.Unknown && q.Unknown && p.ID == id && q.ID == id && p.Base != "" && p.Offset != q.Offset {
				return true
			}
		}
	}
	return false
}

// soleTagValue is the id of the one value a key's tag is, when that value
// may be empty and holds no brace.
func soleTagValue(k Key) (string, bool) {
	if !k.EmptyTagPossible() {
		return "", false
	}
	open, _, _ := k.openBrace()
	tag, _, _, _ := k.tagAfter(open)
	if len(tag) != 1 || !tag[0].NoBrace {
		return "", false
	}
	return tag[0].ID, true
}

// withValue is the key with the value id taken to be "" (set false) or
// taken to be non-empty (set true).
func (k Key) withValue(id string, set bool) Key {
	changes := false
	for _, p := range k {
		if p.Unknown && p.ID == id && (!set || !p.NonEmpty) {
			changes = true
			break
		}
	}
	if !changes {
		return k // keys are never written in place: the key itself will do
	}
	out := make(Key, 0, len(k))
	for _, p := range k {
		switch {
		case !p.Unknown || p.ID != id:
			out = out.appendPart(p)
		case set:
			p.NonEmpty = true
			out = out.appendPart(p)
		}
	}
	return out
}

// assumeIDs returns the key with every unknown value that follows known text
// taken to hold no '{' or '}' — an id in the middle or at the end of a key,
// "bal:"+acct+":cur" — and the names of the values so taken. A value at the
// very start of a key (a namespace, cfg.Prefix+"jobs") is left as it is:
// prefixes such as "{bull}:" carry a tag by design.
func (k Key) assumeIDs() (Key, []string) {
	out := k
	var names []string
	afterText := false
	for i, p := range k {
		switch {
		case !p.Unknown:
			afterText = afterText || p.Text != ""
		case afterText && !p.NoBrace && !p.Braces:
			if names == nil {
				out = append(Key(nil), k...) // copied on the first change
			}
			out[i].NoBrace = true
			names = append(names, p.Show)
		}
	}
	return out, names
}

// ZeroOnPathPair finds a key left "" on some path (see Arg.ZeroOnPath) and
// a key beside it on another slot than "": the command fails whenever the
// assignment is skipped.
func ZeroOnPathPair(keys []Arg, c Claims) (zero, other Arg, d Difference, ok bool) {
	for i, k := range keys {
		if k.ZeroOnPath == "" {
			continue
		}
		for j, o := range keys {
			if j == i {
				continue
			}
			if d, ok := Differ(o, k.Zero(), c); ok {
				return k, o, d, true
			}
		}
	}
	return Arg{}, Arg{}, Difference{}, false
}

// AnyDiffer reports keys that cross slots whatever values the code gives
// their unknown parts: two of them, or a key left "" on some path beside
// another.
func AnyDiffer(keys []Arg, c Claims) bool {
	if _, _, _, ok := ZeroOnPathPair(keys, c); ok {
		return true
	}
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if _, ok := Differ(keys[i], keys[j], c); ok {
				return true
			}
		}
	}
	return false
}

// Pairs are the alternatives of x and y that may be in one command
// together, each alternative of x with each of y, those of one value's two
// ways left out (see Compatible). Every judgement of two keys walks these.
func Pairs(x, y Arg) iter.Seq2[Key, Key] {
	return func(yield func(Key, Key) bool) {
		for _, kx := range x.Alts {
			for _, ky := range y.Alts {
				if Compatible(kx, ky) && !yield(kx, ky) {
					return
				}
			}
		}
	}
}

// Compatible reports whether two alternatives may hold at once: not one
// taken only when a value is empty and one that holds the value as never
// empty.
func Compatible(a, b Key) bool {
	return !excludes(a, b) && !excludes(b, a)
}

func excludes(a, b Key) bool {
	g := a.Guard()
	if g.ID == "" {
		return false
	}
	for _, p := range b {
		if p.Unknown && p.NonEmpty && p.ID == g.ID {
			return true
		}
	}
	return false
}

// OneSlot reports keys every pair of which is on one slot, proved
// (Unproved) or by one tag template of one value (SameTagTemplate: one tag
// whatever the value holds, but for the empty tag strict mode reports).
func OneSlot(keys []Arg) bool {
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if Unproved(keys[i], keys[j]) != "" && !SameTagTemplate(keys[i], keys[j]) {
				return false
			}
		}
	}
	return true
}

// OneValue reports two unknown parts that write one value, or maybe do:
// the same value, or one written through functions and verbs that keep its
// text (v and strings.ToLower(v)). Integers of one base and different
// offsets (t and t-1) are two values; a part that stands for values the
// evaluator gave up on, or has no id, is no value of its own.
func OneValue(p, q Part) bool {
	if !p.Unknown || !q.Unknown || !identified(p) || !identified(q) {
		return false
	}
	if p.Base != "" && p.Base == q.Base {
		return p.Offset == q.Offset
	}
	return rootID(p.ID) == rootID(q.ID) && p.Offset == q.Offset
}

// identified: the part names one value.
func identified(p Part) bool {
	return p.ID != "" && p.ID != "too-many" && !strings.HasSuffix(p.ID, "/too-many")
}

// ValuesApart splits the unknown parts of two keys into those of a that b
// does not hold (OneValue), those of b that a does not hold, and those of a
// that b holds too: keys of two entities each hold a value the other does
// not ("acct:<from>", "acct:<to>").
func ValuesApart(a, b Key) (onlyA, onlyB, shared []Part) {
	holds := func(k Key, p Part) bool {
		return slices.ContainsFunc(k, func(q Part) bool { return OneValue(p, q) })
	}
	for _, p := range a {
		switch {
		case !p.Unknown:
		case holds(b, p):
			shared = append(shared, p)
		default:
			onlyA = append(onlyA, p)
		}
	}
	for _, q := range b {
		if q.Unknown && !holds(a, q) {
			onlyB = append(onlyB, q)
		}
	}
	return onlyA, onlyB, shared
}
