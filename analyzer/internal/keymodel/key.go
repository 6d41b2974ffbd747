package keymodel

import (
	"strconv"
	"strings"
)

// A Part is a piece of a key: known text, or a value the code does not fix.
type Part struct {
	Text    string // the known text, when !unknown
	Unknown bool

	// For unknown parts: id identifies the value (the same SSA value, or the
	// same pure expression over the same values, has the same id), show is
	// its source expression for messages, NoBrace says it can hold neither
	// '{' nor '}', NonEmpty that it is never "".
	ID       string
	Show     string
	NoBrace  bool
	NonEmpty bool
	// Braces says the value's type prints braces the evaluator does not
	// place (a map, a slice of structs): it is never taken to hold none.
	Braces bool
	// Configured says the value is read from configuration (a field that
	// a file, the environment or flags fill, an environment variable): a
	// value its users set, where a prefix carries a hash tag by design.
	Configured bool
	// Given says the value is a parameter of the function, or of a function
	// enclosing it (what a closure captured): kept after Param is dropped,
	// so that a whole key or a key's start given by callers stays theirs.
	Given bool

	// In a function's summary, param > 0 says the part is the function's
	// parameter number param (1-based, the receiver first, as SSA numbers
	// them) formatted by verb, a fmt verb such as "%d" ("" is the value
	// itself). A caller puts its argument in (see instantiate).
	Param int
	Verb  string
	// Bare says the parameter is formatted as the value of a basic type it
	// was converted to (strconv.FormatFloat(float64(s))): fmt does not
	// call the String method of the caller's type for it.
	Bare bool
	// Join says the part is every element of the slice parameter param,
	// joined by verb: strings.Join(parts, verb), or k += p over parts;
	// with Lead, each element preceded by verb: k += ":" + p over parts.
	Join bool
	Lead bool
	// Elem > 0 says, in a function's summary, the part is each element of
	// its slice parameter number Elem in turn (a helper that builds one key
	// per element). A caller puts its slice's elements in (see eval).
	Elem int
	// Of > 0 says the part is a value held by the object that parameter
	// number Of of the function points to (a field of it, or a value one of
	// its fields was built from); Sub names the part within that object.
	// A caller puts its own object in (see instantiate).
	Of  int
	Sub string
	// Base and Offset say the part is an integer written by an injective
	// verb, the value Base plus Offset: parts of one Base and different
	// Offsets (t, t-1) are different text.
	Base   string
	Offset int64

	// Empty, on one part of a key, says the key is this alternative only
	// when the value it names is "" (see Guard).
	Empty Guard
}

// A Key is the abstract value of one key expression: its parts in order,
// adjacent known texts merged and empty ones dropped.
type Key []Part

func TextKey(s string) Key {
	if s == "" {
		return Key{}
	}
	return Key{{Text: s}}
}

func UnknownKey(p Part) Key {
	p.Unknown = true
	return Key{p}
}

// Concat joins keys, keeping them normalized.
func Concat(ks ...Key) Key {
	n := 0
	for _, k := range ks {
		n += len(k)
	}
	if n == 0 {
		return nil
	}
	out := make(Key, 0, n)
	for _, k := range ks {
		for _, p := range k {
			out = out.appendPart(p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// appendPart appends p to k, keeping it normalized: known text joins the
// known text before it, empty text is dropped. k's own array is written.
func (k Key) appendPart(p Part) Key {
	if !p.Unknown {
		n := len(k)
		if p.Text == "" {
			if n > 0 && k[n-1].Empty.IsZero() {
				k[n-1].Empty = p.Empty // a guard outlives its empty text where it can
			}
			return k
		}
		if n > 0 && !k[n-1].Unknown {
			k[n-1].Text += p.Text
			if k[n-1].Empty.IsZero() {
				k[n-1].Empty = p.Empty
			}
			return k
		}
	}
	return append(k, p)
}

// Product concatenates every alternative of a with every one of b.
func Product(a, b []Key) []Key {
	out := make([]Key, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, Concat(x, y))
		}
	}
	if len(out) > MaxAlternatives {
		// Too many combinations to track: keep the first, marked unknown at
		// the end so no claim is made from it.
		return []Key{Concat(out[0], UnknownKey(Part{ID: "too-many", Show: "…"}))}
	}
	return out
}

// MaxAlternatives bounds the alternatives a key is tracked with, keeping
// evaluation linear on generated code: past it a key is unknown, which only
// ever makes the analyzer quieter.
const MaxAlternatives = 8

// Known reports the key's text when it has no unknown part.
func (k Key) Known() (string, bool) {
	switch len(k) {
	case 0:
		return "", true
	case 1:
		return k[0].Text, !k[0].Unknown
	}
	return "", false
}

func (k Key) String() string {
	var b strings.Builder
	for _, p := range k {
		if p.Unknown {
			b.WriteString("<" + p.Show + ">")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// FromParams reports whether some part of the key comes from a parameter of
// the function it was evaluated in.
func (k Key) FromParams() bool {
	for _, p := range k {
		if p.Param > 0 {
			return true
		}
	}
	return false
}

// Quoted shows the key in messages: known text Go-quoted, unknown parts by
// their source expression in angle brackets inside the quotes, so that they
// cannot be taken for text: "user:{<id>}:a", "user:{}:<id>".
func (k Key) Quoted() string {
	return strconv.Quote(k.String())
}

// FirstParam is the first parameter a key's parts come from, 0 if none.
func (k Key) FirstParam() int {
	for _, p := range k {
		if p.Param > 0 {
			return p.Param
		}
	}
	return 0
}
