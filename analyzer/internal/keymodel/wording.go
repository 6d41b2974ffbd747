package keymodel

import (
	"fmt"
	"strings"
)

// The words of a verdict on two keys, for the checks' messages: each key
// with its slot, for which values they differ, and what the case assumes.

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

// showOf is how the value id is written in the key.
func showOf(k Key, id string) string {
	for _, p := range k {
		if p.Unknown && p.ID == id {
			return p.Show
		}
	}
	return ""
}
