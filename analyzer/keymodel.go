package analyzer

import (
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

// A part is a piece of a key: known text, or a value the code does not fix.
type part struct {
	text    string // the known text, when !unknown
	unknown bool

	// For unknown parts: id identifies the value (the same SSA value, or the
	// same pure expression over the same values, has the same id), show is
	// its source expression for messages, noBrace says it can hold neither
	// '{' nor '}', nonEmpty that it is never "".
	id       string
	show     string
	noBrace  bool
	nonEmpty bool

	// In a function's summary, param > 0 says the part is the function's
	// parameter number param (1-based, the receiver first, as SSA numbers
	// them) formatted by verb, a fmt verb such as "%d" ("" is the value
	// itself). A caller puts its argument in (see instantiate).
	param int
	verb  string
	// join says the part is every element of the slice parameter param,
	// joined by verb: strings.Join(parts, verb), or k += p over parts.
	join bool
}

// A key is the abstract value of one key expression: its parts in order,
// adjacent known texts merged and empty ones dropped.
type key []part

func textKey(s string) key {
	if s == "" {
		return key{}
	}
	return key{{text: s}}
}

func unknownKey(p part) key {
	p.unknown = true
	return key{p}
}

// concat joins keys, keeping them normalized.
func concat(ks ...key) key {
	var out key
	for _, k := range ks {
		for _, p := range k {
			if !p.unknown {
				if p.text == "" {
					continue
				}
				if n := len(out); n > 0 && !out[n-1].unknown {
					out[n-1].text += p.text
					continue
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// known reports the key's text when it has no unknown part.
func (k key) known() (string, bool) {
	switch len(k) {
	case 0:
		return "", true
	case 1:
		return k[0].text, !k[0].unknown
	}
	return "", false
}

func (k key) String() string {
	var b strings.Builder
	for _, p := range k {
		if p.unknown {
			b.WriteString("<" + p.show + ">")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// fromParams reports whether some part of the key comes from a parameter of
// the function it was evaluated in.
func (k key) fromParams() bool {
	for _, p := range k {
		if p.param > 0 {
			return true
		}
	}
	return false
}

// quoted shows the key in messages: known text Go-quoted, unknown parts by
// their source expression in angle brackets inside the quotes, so that they
// cannot be taken for text: "user:{<id>}:a", "user:{}:<id>".
func (k key) quoted() string {
	return strconv.Quote(k.String())
}

// bracePos is a position in a key: part index and byte offset in its text.
type bracePos struct{ part, off int }

// openBrace finds the key's first '{'. found is false when the key surely has
// none; ok is false when an unknown part before any known '{' may hold one.
func (k key) openBrace() (pos bracePos, found, ok bool) {
	for i, p := range k {
		if p.unknown {
			if !p.noBrace {
				return bracePos{}, false, false
			}
			continue
		}
		if j := strings.IndexByte(p.text, '{'); j >= 0 {
			return bracePos{i, j}, true, true
		}
	}
	return bracePos{}, false, true
}

// tagAfter collects what follows the '{' at open up to the first '}'.
// closed is false when the key surely has no '}' after it; ok is false when
// an unknown part in between may hold a brace. end is the '}' position.
func (k key) tagAfter(open bracePos) (tag key, end bracePos, closed, ok bool) {
	for i := open.part; i < len(k); i++ {
		p := k[i]
		if p.unknown {
			if !p.noBrace {
				return nil, bracePos{}, false, false
			}
			tag = append(tag, p)
			continue
		}
		text := p.text
		start := 0
		if i == open.part {
			start = open.off + 1
		}
		if j := strings.IndexByte(text[start:], '}'); j >= 0 {
			tag = concat(tag, textKey(text[start:start+j]))
			return tag, bracePos{i, start + j}, true, true
		}
		tag = concat(tag, textKey(text[start:]))
	}
	return nil, bracePos{}, false, true
}

// hashed returns the part of the key the slot is computed from: its tag, or
// the whole key. ok is false when that depends on values the code does not fix.
func (k key) hashed() (key, bool) {
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
		if !p.unknown || p.nonEmpty {
			return tag, true
		}
	}
	return nil, false // every part may be empty: "{}" or a tag, by value
}

// emptyTagPossible: the key has a tag whose every part may be empty, so that
// by value it is "{}" (the whole key is hashed) or a tag.
func (k key) emptyTagPossible() bool {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return false
	}
	tag, _, closed, ok := k.tagAfter(open)
	if !ok || !closed || len(tag) == 0 {
		return false
	}
	for _, p := range tag {
		if !p.unknown || p.nonEmpty {
			return false
		}
	}
	return true
}

// constantTag reports a key whose tag is one known, non-empty text while the
// key holds a value outside it that may vary (not a constant): the tag and
// the values' names.
func (k key) constantTag() (tag string, values string, ok bool) {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return "", "", false
	}
	t, _, closed, ok := k.tagAfter(open)
	if !ok || !closed {
		return "", "", false
	}
	tag, known := t.known()
	if !known || tag == "" {
		return "", "", false
	}
	var names []string
	for _, p := range k {
		if p.unknown {
			names = append(names, p.show)
		}
	}
	return tag, strings.Join(names, " and "), len(names) > 0
}

// slot is the key's slot when the hashed part is fully known.
func (k key) slot() (int, bool) {
	h, ok := k.hashed()
	if !ok {
		return 0, false
	}
	s, ok := h.known()
	if !ok {
		return 0, false
	}
	return slotcalc.Slot(s), true
}

// A tagProblem is a malformed hash tag that holds for every value of the key.
type tagProblem int

const (
	noTagProblem tagProblem = iota
	emptyTag
	doubleTag
	unclosedTag
)

// tagProblem proves a malformed tag: an empty first tag, a second tag or a
// '{' inside the tag, or a '{' with no '}' after it.
func (k key) tagProblem() tagProblem {
	open, found, ok := k.openBrace()
	if !ok || !found {
		return noTagProblem
	}
	if t := k[open.part].text; open.off+1 < len(t) && t[open.off+1] == '}' {
		return emptyTag
	}
	tag, end, closed, ok := k.tagAfter(open)
	if !ok {
		return noTagProblem
	}
	if !closed {
		return unclosedTag
	}
	for _, p := range tag {
		if !p.unknown && strings.IndexByte(p.text, '{') >= 0 {
			return doubleTag
		}
	}
	// A second "{...}" after the tag, both braces in known text.
	sawOpen := false
	for i := end.part; i < len(k); i++ {
		p := k[i]
		if p.unknown {
			continue
		}
		text := p.text
		if i == end.part {
			text = text[end.off+1:]
		}
		for j := 0; j < len(text); j++ {
			switch {
			case text[j] == '{':
				sawOpen = true
			case text[j] == '}' && sawOpen:
				return doubleTag
			}
		}
	}
	return noTagProblem
}
