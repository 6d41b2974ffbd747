package keymodel

import (
	"go/ast"
	"go/token"
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
func (k Arg) FromParams() bool {
	if k.Spread > 0 {
		return true
	}
	for _, alt := range k.Alts {
		if alt.FromParams() {
			return true
		}
	}
	return false
}
