package analyzer

import (
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

// A part is a piece of a key: known text, or a value the code does not fix.
type Part struct {
	Text    string // the known text, when !unknown
	Unknown bool

	// For unknown parts: id identifies the value (the same SSA value, or the
	// same pure expression over the same values, has the same id), show is
	// its source expression for messages, noBrace says it can hold neither
	// '{' nor '}', nonEmpty that it is never "".
	ID       string
	Show     string
	NoBrace  bool
	NonEmpty bool

	// In a function's summary, param > 0 says the part is the function's
	// parameter number param (1-based, the receiver first, as SSA numbers
	// them) formatted by verb, a fmt verb such as "%d" ("" is the value
	// itself). A caller puts its argument in (see instantiate).
	Param int
	Verb  string
	// join says the part is every element of the slice parameter param,
	// joined by verb: strings.Join(parts, verb), or k += p over parts.
	Join bool
}

// A key is the abstract value of one key expression: its parts in order,
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

// concat joins keys, keeping them normalized.
func Concat(ks ...Key) Key {
	var out Key
	for _, k := range ks {
		for _, p := range k {
			if !p.Unknown {
				if p.Text == "" {
					continue
				}
				if n := len(out); n > 0 && !out[n-1].Unknown {
					out[n-1].Text += p.Text
					continue
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// known reports the key's text when it has no unknown part.
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

// fromParams reports whether some part of the key comes from a parameter of
// the function it was evaluated in.
func (k Key) FromParams() bool {
	for _, p := range k {
		if p.Param > 0 {
			return true
		}
	}
	return false
}

// quoted shows the key in messages: known text Go-quoted, unknown parts by
// their source expression in angle brackets inside the quotes, so that they
// cannot be taken for text: "user:{<id>}:a", "user:{}:<id>".
func (k Key) Quoted() string {
	return strconv.Quote(k.String())
}

// bracePos is a position in a key: part index and byte offset in its text.
type bracePos struct{ part, off int }

// openBrace finds the key's first '{'. found is false when the key surely has
// none; ok is false when an unknown part before any known '{' may hold one.
func (k Key) openBrace() (pos bracePos, found, ok bool) {
	for i, p := range k {
		if p.Unknown {
			if !p.NoBrace {
				return bracePos{}, false, false
			}
			continue
		}
		if j := strings.IndexByte(p.Text, '{'); j >= 0 {
			return bracePos{i, j}, true, true
		}
	}
	return bracePos{}, false, true
}

// tagAfter collects what follows the '{' at open up to the first '}'.
// closed is false when the key surely has no '}' after it; ok is false when
// an unknown part in between may hold a brace. end is the '}' position.
func (k Key) tagAfter(open bracePos) (tag Key, end bracePos, closed, ok bool) {
	for i := open.part; i < len(k); i++ {
		p := k[i]
		if p.Unknown {
			if !p.NoBrace {
				return nil, bracePos{}, false, false
			}
			tag = append(tag, p)
			continue
		}
		text := p.Text
		start := 0
		if i == open.part {
			start = open.off + 1
		}
		if j := strings.IndexByte(text[start:], '}'); j >= 0 {
			tag = Concat(tag, TextKey(text[start:start+j]))
			return tag, bracePos{i, start + j}, true, true
		}
		tag = Concat(tag, TextKey(text[start:]))
	}
	return nil, bracePos{}, false, true
}

// hashed returns the part of the key the slot is computed from: its tag, or
// the whole key. ok is false when that depends on values the code does not fix.
func (k Key) Hashed() (Key, bool) {
	open, found, ok := k.openBrace()
	if !ok {
		return nil, false
	}
	if !found {
		return k, true
	}
	tag, _, closed, ok := k.tagAfter(open)
	if !ok {
		return nil, false
	}
	if !closed {
		return k, true // unclosed '{': the whole key
	}
	if len(tag) == 0 {
		return k, true // "{}": the whole key
	}
	for _, p := range tag {
		if !p.Unknown || p.NonEmpty {
			return tag, true
		}
	}
	return nil, false // every part may be empty: "{}" or a tag, by value
}

// emptyTagPossible: the key has a tag whose every part may be empty, so that
// by value it is "{}" (the whole key is hashed) or a tag.
func (k Key) EmptyTagPossible() bool {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return false
	}
	tag, _, closed, ok := k.tagAfter(open)
	if !ok || !closed || len(tag) == 0 {
		return false
	}
	for _, p := range tag {
		if !p.Unknown || p.NonEmpty {
			return false
		}
	}
	return true
}

// constantTag reports a key whose tag is one known, non-empty text while the
// key holds a value outside it that may vary (not a constant): the tag and
// the values' names.
func (k Key) ConstantTag() (tag string, values string, ok bool) {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return "", "", false
	}
	t, _, closed, ok := k.tagAfter(open)
	if !ok || !closed {
		return "", "", false
	}
	tag, known := t.Known()
	if !known || tag == "" {
		return "", "", false
	}
	var names []string
	for _, p := range k {
		if p.Unknown {
			names = append(names, p.Show)
		}
	}
	return tag, strings.Join(names, " and "), len(names) > 0
}

// slot is the key's slot when the hashed part is fully known.
func (k Key) Slot() (int, bool) {
	h, ok := k.Hashed()
	if !ok {
		return 0, false
	}
	s, ok := h.Known()
	if !ok {
		return 0, false
	}
	return slotcalc.Slot(s), true
}

// A tagProblem is a malformed hash tag that holds for every value of the key.
type TagProblem int

const (
	NoTagProblem TagProblem = iota
	EmptyTag
	DoubleTag
	UnclosedTag
)

// tagProblem proves a malformed tag: an empty first tag, a second tag or a
// '{' inside the tag, or a '{' with no '}' after it.
func (k Key) TagProblem() TagProblem {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return NoTagProblem
	}
	if t := k[open.part].Text; open.off+1 < len(t) && t[open.off+1] == '}' {
		return EmptyTag
	}
	tag, end, closed, ok := k.tagAfter(open)
	if !ok {
		return NoTagProblem
	}
	if !closed {
		return UnclosedTag
	}
	for _, p := range tag {
		if !p.Unknown && strings.IndexByte(p.Text, '{') >= 0 {
			return DoubleTag
		}
	}
	// A second "{...}" after the tag, both braces in known text.
	sawOpen := false
	for i := end.part; i < len(k); i++ {
		p := k[i]
		if p.Unknown {
			continue
		}
		text := p.Text
		if i == end.part {
			text = text[end.off+1:]
		}
		for j := 0; j < len(text); j++ {
			switch {
			case text[j] == '{':
				sawOpen = true
			case text[j] == '}' && sawOpen:
				return DoubleTag
			}
		}
	}
	return NoTagProblem
}
