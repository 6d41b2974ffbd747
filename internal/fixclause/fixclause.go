// Package fixclause reads the fix clause of a finding's message, for the
// tests that hold the analyzer's advice to be safe: keys of two entities
// are never told to share one hash tag, and no clause proposes a tag the
// hottag check objects to (a constant tag with a per-entity value outside
// it). It reads messages as users do, from their text, so that it judges
// the advice and not the analyzer's model of it.
package fixclause

import (
	"regexp"
	"strconv"
	"strings"
)

// Judged are the categories whose findings name two keys that cross and
// end with a clause about their slots.
var Judged = map[string]bool{"crossslot": true, "ringshard": true, "shardedpubsub": true, "scriptslot": true}

// Clause is a message's fix clause: what follows its last "; ".
func Clause(message string) string {
	if i := strings.LastIndex(message, "; "); i >= 0 {
		return message[i+2:]
	}
	return message
}

// quoted matches a Go-quoted string, as messages show keys.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// Keys are the two keys a finding says cross: the first two quoted keys
// before "are on different hash slots" (or "hash by different values", on
// a Ring). family says the finding is about one key built for two
// elements of an input ("for two different elements of ids"), given as
// both keys.
func Keys(message string) (a, b string, family, ok bool) {
	head := message
	for _, s := range []string{" are on different hash slots", " hash by different values"} {
		if i := strings.Index(head, s); i >= 0 {
			head = head[:i]
		}
	}
	qs := quoted.FindAllString(head, 2)
	unquote := func(s string) string {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s
	}
	switch {
	case strings.Contains(head, " for two different ") && len(qs) >= 1:
		return unquote(qs[0]), unquote(qs[0]), true, true
	case len(qs) >= 2:
		return unquote(qs[0]), unquote(qs[1]), false, true
	}
	return "", "", false, false
}

// Values are the values a shown key holds: the expressions in angle
// brackets ("acct:<from>" holds from).
func Values(key string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(key); i++ {
		switch key[i] {
		case '<':
			if depth == 0 {
				start = i + 1
			}
			depth++
		case '>':
			if depth > 0 {
				if depth--; depth == 0 {
					out = append(out, key[start:i])
				}
			}
		}
	}
	return out
}

// TwoEntities reports keys of two entities: two elements' keys, keys that
// each hold a value the other does not (two values of one template:
// "friends:<a>", "friends:<b>"), or two constant keys of one template with
// two ids ("shop:stock:1", "shop:stock:2"; "user:1:a", "user:2:a").
func TwoEntities(a, b string, family bool) bool {
	if family {
		return true
	}
	va, vb := Values(a), Values(b)
	if len(va) == 0 && len(vb) == 0 {
		return familyIDs(a, b)
	}
	return len(va) > 0 && len(vb) > 0 && holdsOther(va, vb) && holdsOther(vb, va)
}

// holdsOther: some value of x is none of y's, nor written from one of them
// (s and strconv.Itoa(int(s)) are one value, written two ways).
func holdsOther(x, y []string) bool {
	for _, v := range x {
		related := false
		for _, w := range y {
			related = related || mentions(v, w) || mentions(w, v)
		}
		if !related {
			return true
		}
	}
	return false
}

// mentions reports v written in expression e as a whole operand: e itself,
// or e applying something to it (strconv.Itoa(v), v.Format(...)).
func mentions(e, v string) bool {
	ident := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(e[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !ident(e[j-1]) && e[j-1] != '.') && (end == len(e) || !ident(e[end])) {
			return true
		}
		i = j + 1
	}
}

// familyIDs: constant keys of the same ':'-separated segments but one,
// which holds a digit in both ("user:1:a", "user:2:a").
func familyIDs(a, b string) bool {
	sa, sb := strings.Split(a, ":"), strings.Split(b, ":")
	if len(sa) != len(sb) || len(sa) < 2 {
		return false
	}
	apart := 0
	for i := range sa {
		if sa[i] != sb[i] {
			apart++
			if !strings.ContainsAny(sa[i], "0123456789") || !strings.ContainsAny(sb[i], "0123456789") {
				return false
			}
		}
	}
	return apart == 1
}

// sharedTag matches a clause that tells keys to share one hash tag: an
// imperative give, make or put, at the clause's start or after a comma,
// that ends in one hash tag, their hash tag, the hash tag (of ... too,
// {x}) or the declared keys' hash tag. Clauses that warn against one tag
// ("since one hash tag for every such key would ...") or tell keys to be
// tagged with an entity they belong to are not such.
var sharedTag = regexp.MustCompile(`(^|, (or |and )?)(give|make|put)\b[^;,]*?\b(one hash tag|their hash tag|the hash tag|keys' hash tag)`)

// SharedTag reports a clause that tells the keys to share one hash tag.
func SharedTag(clause string) bool {
	return sharedTag.MatchString(clause)
}

// HotProposals are the tags a finding's clause proposes that the hottag
// check would object to: an example key (quoted) whose hash tag is
// constant text while a value sits outside it, or a constant tag ({x})
// proposed for keys that hold values (named as a tag to give, not as one
// not to).
func HotProposals(message string) []string {
	clause := Clause(message)
	var out []string
	for _, q := range quoted.FindAllString(clause, -1) {
		k, err := strconv.Unquote(q)
		if err == nil && hotKey(k) {
			out = append(out, k)
		}
	}
	a, b, _, ok := Keys(message)
	holds := ok && len(Values(a))+len(Values(b)) > 0
	for _, t := range bareTags(quoted.ReplaceAllString(clause, `""`)) {
		if holds && !strings.Contains(t, "<") {
			out = append(out, "{"+t+"}")
		}
	}
	return out
}

// hotKey reports a shown key whose hash tag is constant text while a value
// sits outside it ("{hot}:cat:<c>").
func hotKey(k string) bool {
	text := masked(k)
	open := strings.IndexByte(text, '{')
	if open < 0 {
		return false
	}
	end := strings.IndexByte(text[open+1:], '}')
	if end <= 0 {
		return false
	}
	tag := text[open+1 : open+1+end]
	outside := text[:open] + text[open+1+end+1:]
	return !strings.ContainsRune(tag, '\x00') && strings.ContainsRune(outside, '\x00')
}

// masked is a shown key with each value replaced by one NUL, so that
// braces inside a value's expression are not taken for the key's.
func masked(k string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(k); i++ {
		switch {
		case k[i] == '<':
			if depth == 0 {
				b.WriteByte(0)
			}
			depth++
		case k[i] == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(k[i])
		}
	}
	return b.String()
}

// bareTags are the "{x}" a clause names outside quoted keys as tags to
// give, not those it names as what not to do ("one tag for both, such as
// {acct}, would put every such key on one slot").
func bareTags(clause string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\{([^{}]+)\}`).FindAllStringSubmatchIndex(clause, -1) {
		rest, _, _ := strings.Cut(clause[m[1]:], ")")
		if !strings.Contains(rest, "would put") {
			out = append(out, clause[m[2]:m[3]])
		}
	}
	return out
}
