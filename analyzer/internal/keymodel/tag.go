package keymodel

import (
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

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
		if tag == nil {
			tag = make(Key, 0, len(k)-i) // at most the parts left
		}
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
			return tag.appendPart(Part{Text: text[start : start+j]}), bracePos{i, start + j}, true, true
		}
		tag = tag.appendPart(Part{Text: text[start:]})
	}
	return nil, bracePos{}, false, true
}

// Hashed returns the part of the key the slot is computed from: its tag, or
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

// EmptyTagPossible reports a key with a tag whose every part may be empty, so that
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

// ConstantTag reports a key whose tag is one known, non-empty text while the
// Key holds a value outside it that may vary (not a constant): the tag and
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

// Slot is the key's slot when the hashed part is fully known.
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

// A TagProblem is a malformed hash tag that holds for every value of the key.
type TagProblem int

// TagProblem proves a malformed tag: an empty first tag, a second tag or a
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
			return NestedTag
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

// tagTemplate is the parts between a key's first known '{' and the first
// known '}' after it, when no part before that '{' may hold a brace.
func (k Key) tagTemplate() (Key, bool) {
	for i, p := range k {
		if p.Unknown {
			if !p.NoBrace {
				return nil, false
			}
			continue
		}
		open := strings.IndexByte(p.Text, '{')
		if open < 0 {
			continue
		}
		inside := p.Text[open+1:]
		if end := strings.IndexByte(inside, '}'); end >= 0 {
			return Key(nil).appendPart(Part{Text: inside[:end]}), true
		}
		tag := Key(nil).appendPart(Part{Text: inside})
		for _, q := range k[i+1:] {
			if !q.Unknown {
				if end := strings.IndexByte(q.Text, '}'); end >= 0 {
					return tag.appendPart(Part{Text: q.Text[:end]}), true
				}
			}
			tag = tag.appendPart(q)
		}
		return nil, false
	}
	return nil, false
}

const (
	NoTagProblem TagProblem = iota
	EmptyTag
	DoubleTag // a second "{...}" after the tag
	NestedTag // a '{' inside the tag: the tag runs from the first '{' to the first '}'
	UnclosedTag
)

// Tag is the text between the key's first known '{' and the first known
// '}' after it, for messages.
func (k Key) Tag() (Key, bool) { return k.tagTemplate() }

// TagProblemAssuming is TagProblem with the key's ids (values after known
// text) taken to hold no brace, and the names of the values so taken; none
// when the key has the problem whatever they hold.
func (k Key) TagProblemAssuming() (TagProblem, []string) {
	if p := k.TagProblem(); p != NoTagProblem {
		return p, nil
	}
	assumed, names := k.assumeIDs()
	if len(names) == 0 {
		return NoTagProblem, nil
	}
	return assumed.TagProblem(), names
}
