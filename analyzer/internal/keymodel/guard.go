package keymodel

// A function that returns one key when a value is empty and another when it
// is not takes one way for both keys of a command built from that value:
//
//	func (s Space) Join(parts ...string) string {
//		if s == "" { return strings.Join(parts, ":") }
//		return string(s) + ":" + strings.Join(parts, ":")
//	}
//
// s.ns.Join("course", a) and s.ns.Join("course", b) are both without the
// namespace or both with it, never one of each. The alternative a test
// that the value is empty leads to carries a Guard naming the value; the
// alternative its other way leads to holds the value marked NonEmpty.
// Compatible says which alternatives of two keys may meet.

// A Guard names the value an alternative is taken for only when it is "":
// by its id, or in a function's summary by the parameter (Param) or the
// value held by a parameter's object (Of, Sub) a caller puts in.
type Guard struct {
	ID    string
	Param int
	Of    int
	Sub   string
}

// IsZero reports no guard.
func (g Guard) IsZero() bool { return g == Guard{} }

// Guarded is the key taken only when the value of g is empty: g is set on
// its first part (a key with no part cannot carry it, and is returned
// unchanged: its alternatives are then paired with every other's, as
// without the test).
func (k Key) Guarded(g Guard) Key {
	if len(k) == 0 || g.IsZero() {
		return k
	}
	out := append(Key(nil), k...)
	out[0].Empty = g
	return out
}

// Guard is the guard the key carries, if any.
func (k Key) Guard() Guard {
	for _, p := range k {
		if !p.Empty.IsZero() {
			return p.Empty
		}
	}
	return Guard{}
}

// Unguarded is the key without its guard.
func (k Key) Unguarded() Key {
	for i, p := range k {
		if !p.Empty.IsZero() {
			out := append(Key(nil), k...)
			out[i].Empty = Guard{}
			return out
		}
	}
	return k
}

// NonEmptyValue is the key with every part that is the value id marked
// never "".
func (k Key) NonEmptyValue(id string) Key {
	var out Key
	for i, p := range k {
		if p.Unknown && p.ID == id && !p.NonEmpty {
			if out == nil {
				out = append(Key(nil), k...)
			}
			out[i].NonEmpty = true
		}
	}
	if out == nil {
		return k
	}
	return out
}
