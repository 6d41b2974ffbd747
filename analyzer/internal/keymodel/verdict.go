package keymodel

import (
	"fmt"
	"slices"
	"strings"
)

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

// Show shows one of the two keys for messages: with its slot when known, and
// the command it belongs to when given.
func (d Difference) Show(first bool, method string) string {
	k, slot := d.B, d.SlotB
	if first {
		k, slot = d.A, d.SlotA
	}
	var in []string
	if d.SlotsKnown {
		in = append(in, fmt.Sprintf("slot %d", slot))
	}
	if method != "" {
		in = append(in, method)
	}
	if len(in) == 0 {
		return k.Quoted()
	}
	return fmt.Sprintf("%s (%s)", k.Quoted(), strings.Join(in, ", "))
}

// How says for which values the keys differ, "" when they are known, and
// what the case assumes.
func (d Difference) How() string {
	if d.SlotsKnown {
		return ""
	}
	how := " for every value of " + d.values
	switch {
	case d.UnlessEqual:
		how = " for all but about 1 in 16384 pairs of different values of " + d.values
	case d.Pairs:
		how = " for all but about 1 in 16384 pairs of values of " + d.values
	case d.NearSure:
		how = " for all but about 1 in 16384 values of " + d.values
	}
	return how + d.Assuming()
}

// ForPairs says for which pairs of a loop's elements the keys differ (see
// Arg.OtherElement), and what the case assumes.
func (d Difference) ForPairs() string {
	if d.NearSure {
		return " for all but about 1 in 16384 pairs of them" + d.Assuming()
	}
	return " for every pair of them" + d.Assuming()
}

// Assuming says what the case assumes of its values, "" when nothing.
func (d Difference) Assuming() string {
	out := AssumingNoBrace(d.Assumed)
	switch len(d.Leading) {
	case 0:
	case 1:
		out += ", unless " + d.Leading[0] + " holds a hash tag"
	default:
		out += ", unless " + strings.Join(d.Leading, " or ") + " holds a hash tag"
	}
	return out
}

// AssumingNoBrace says, for messages, that the named values are taken to
// hold no brace; "" for none.
func AssumingNoBrace(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (assuming " + names[0] + " holds no brace)"
	}
	return " (assuming " + strings.Join(names, " and ") + " hold no brace)"
}

// SlotOf is the related information's "is on slot N", or "" when unknown.
func (d Difference) SlotOf(first bool) string {
	if !d.SlotsKnown {
		return ""
	}
	if first {
		return fmt.Sprintf(" is on slot %d", d.SlotA)
	}
	return fmt.Sprintf(" is on slot %d", d.SlotB)
}

// valuesOfBoth names the unknown parts of two keys' hashed parts for
// messages, each value once; for pairs of values, those the keys do not
// share.
func valuesOfBoth(a, b Key, pairs bool) string {
	var names []string
	seen := map[string]bool{}
	if pairs {
		ha, _ := a.Hashed()
		hb, _ := b.Hashed()
		for _, p := range ha {
			for _, q := range hb {
				if p.Unknown && q.Unknown && p.ID == q.ID {
					seen[p.ID] = true // shared: not what the pair differs in
				}
			}
		}
	}
	for _, k := range []Key{a, b} {
		if id, ok := soleTagValue(k); ok {
			k = k.withValue(id, true)
		}
		h, ok := k.Hashed()
		if !ok {
			continue
		}
		for _, p := range h {
			if p.Unknown && !seen[p.ID] {
				seen[p.ID] = true
				names = append(names, p.Show)
			}
		}
	}
	return strings.Join(names, " and ")
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
