package keymodel

import (
	"go/ast"
	"go/token"
	"strings"
)

// Range is a source range to report at.
type Range struct{ Pos, End token.Pos }

func RangeOf(n ast.Node) Range { return Range{n.Pos(), n.End()} }

// A Arg is one key of a call, with its alternatives and where to report it.
type Arg struct {
	Alts []Key
	At   Range

	// Spread > 0: the key is every element of the calling function's slice
	// parameter number spread (1-based); alts is empty. Its callers fill it.
	Spread int
	// ViaCall: the key reached a wrapper's command from the caller's
	// arguments (see InstantiateKey).
	ViaCall bool
	// Unread names a list of keys the analyzer cannot read (a slice from
	// input); alts is empty. Only strict mode reports it.
	Unread string
	// Family names the input slice whose every element adds a key of the
	// form Alts, built in a loop (for _, t := range tags { ks = append(ks,
	// "tag:"+t) }): the element is a part that differs from one element to
	// the next (see OtherElement).
	Family string
	// ZeroOnPath names a variable that is "" on the paths that skip its
	// assignment, and reaches the call so: one of Alts is that "", the
	// last. The call fails on those paths if "" is on another slot than
	// the other keys.
	ZeroOnPath string
	// Apart marks a key of one of the lists a slice argument may be, the
	// values a φ merges (ks := keys; if prefix != "" { ks = prefixed(keys)
	// }): keys of two different lists of one φ never meet (see Meets).
	Apart Alternative
}

// An Alternative is one of the lists a φ of slices merges: Is numbers it
// from 1 among the lists of the φ Of.
type Alternative struct {
	Of string
	Is int
}

// Meets reports whether the keys may be in one command together: not
// keys of two different lists of one φ (see Apart).
func (a Arg) Meets(b Arg) bool {
	return a.Apart.Of == "" || a.Apart.Of != b.Apart.Of || a.Apart.Is == b.Apart.Is
}

// Lists splits a command's keys into the lists it may run with, one per
// alternative of a φ (see Apart), each with the keys of no alternative,
// and none of them marked: the command is as if it were each of those
// commands. Keys of no alternative are one list; no list is empty. ok is
// false for keys of the alternatives of several φs.
func Lists(keys []Arg) (lists [][]Arg, ok bool) {
	of, n := "", 0
	for _, k := range keys {
		if k.Apart.Of == "" {
			continue
		}
		if of != "" && k.Apart.Of != of {
			return nil, false
		}
		of, n = k.Apart.Of, max(n, k.Apart.Is)
	}
	if of == "" {
		return [][]Arg{keys}, true
	}
	for is := 1; is <= n; is++ {
		var list []Arg
		for _, k := range keys {
			if k.Apart.Of == "" || k.Apart.Is == is {
				k.Apart = Alternative{}
				list = append(list, k)
			}
		}
		if len(list) > 0 {
			lists = append(lists, list)
		}
	}
	return lists, true
}

// Zero is the key a ZeroOnPath variable is on the paths that skip its
// assignment.
func (a Arg) Zero() Arg {
	return Arg{Alts: []Key{{}}, At: a.At, Apart: a.Apart}
}

// elementBase marks the Base of a part that is a loop's element.
const elementBase = "elem:"

// ElementPart is the part a loop's element over the slice of the given id
// is, in a family's keys.
func ElementPart(p Part, sliceID string) Part {
	p.Base, p.Offset = elementBase+sliceID, 0
	return p
}

// HasElement reports a key built from a loop's element (see ElementPart),
// which differs from one iteration to the next.
func (a Arg) HasElement() bool {
	for _, k := range a.Alts {
		for _, p := range k {
			if strings.HasPrefix(p.Base, elementBase) {
				return true
			}
		}
	}
	return false
}

// OtherElement is a family's key for another element of its slice than the
// one in a: the element's parts, one value each, differ.
func (a Arg) OtherElement() Arg {
	other := a
	other.Alts = make([]Key, len(a.Alts))
	for i, k := range a.Alts {
		other.Alts[i] = append(Key(nil), k...)
		for j, p := range other.Alts[i] {
			if strings.HasPrefix(p.Base, elementBase) {
				other.Alts[i][j].Offset = 1
			}
		}
	}
	return other
}

// AnyFromParams reports whether some of the keys come from the function's
// parameters.
func AnyFromParams(keys []Arg) bool {
	for _, k := range keys {
		if k.FromParams() {
			return true
		}
	}
	return false
}

// FromParams reports whether the key depends on the calling function's
// parameters.
func (a Arg) FromParams() bool {
	if a.Spread > 0 {
		return true
	}
	for _, alt := range a.Alts {
		if alt.FromParams() {
			return true
		}
	}
	return false
}
