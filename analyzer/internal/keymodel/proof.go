package keymodel

import (
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

// A Relation is what the analyzer can say of two keys' slots.
type Relation int

// Relate compares the slots of two keys. Fully known keys are compared by
// slot. Keys with unknown parts are compared only when their hashed parts
// (tags, or whole keys) hold the same unknown parts, the same values, in the
// same order:
//
//   - identical templates share the slot;
//   - templates whose known texts have equal lengths and differ in one
//     place only are decided by the linearity of CRC16 (see linearProof);
//   - any other difference in the text around the shared values puts them
//     on different slots for all but about 1 in 16384 values, and so does
//     a fixed slot beside a hashed part that holds a value.
//
// Keys with different unknown parts are not related.
func Relate(a, b Key) Relation {
	if a.sameValue(b) {
		return Same // whatever it holds, one key is on one slot
	}
	ha, okA := a.Hashed()
	hb, okB := b.Hashed()
	if !okA || !okB {
		return Undecided
	}
	sa, knownA := a.Slot()
	sb, knownB := b.Slot()
	switch {
	case knownA && knownB:
		if sa == sb {
			return Same
		}
		return Different
	case knownA != knownB:
		// One slot is fixed and the other hashes a value: they meet for
		// about 1 in 16384 values.
		return NearSure
	}
	segA, partsA := ha.segments()
	segB, partsB := hb.segments()
	if len(partsA) != len(partsB) || len(partsA) == 0 {
		return Undecided
	}
	distinct := false // some value differs from its counterpart (t, t-1)
	for i := range partsA {
		p, q := partsA[i], partsB[i]
		switch {
		case p.ID == q.ID && p.Offset == q.Offset:
		case p.Base != "" && p.Base == q.Base && p.Offset != q.Offset:
			distinct = true
		case p.ID == "%q("+q.ID+")" || q.ID == "%q("+p.ID+")":
			distinct = true // a value and its quoted form: never the same text
		default:
			return Undecided
		}
	}
	if distinct {
		// Different text where the values stand, whatever surrounds it:
		// one slot for about 1 in 16384 values.
		return NearSure
	}
	differing := -1
	aligned := true
	for i := range segA {
		if segA[i] == segB[i] {
			continue
		}
		if len(segA[i]) != len(segB[i]) || differing >= 0 {
			aligned = false
		}
		differing = i
	}
	switch {
	case differing < 0:
		return Same
	case aligned:
		return linearProof(segA[differing], segB[differing], differing < len(segA)-1)
	}
	return NearSure
}

// ShareAValue reports keys built from one unknown value, as one entity's
// keys are ("user:<id>:a", "user:<id>:b").
func ShareAValue(a, b Key) bool {
	for _, p := range a {
		if !p.Unknown || p.ID == "" || p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many") {
			continue
		}
		for _, q := range b {
			if q.Unknown && q.ID == p.ID {
				return true
			}
		}
	}
	return false
}

// sameValue reports keys that are one value: the same text and the same
// unknown values in the same order. A part that stands for values the
// evaluator gave up on (too many alternatives) is no value of its own.
func (k Key) sameValue(o Key) bool {
	if len(k) != len(o) {
		return false
	}
	for i := range k {
		p, q := k[i], o[i]
		if p.Unknown != q.Unknown || p.Text != q.Text || p.ID != q.ID || p.Offset != q.Offset ||
			p.Unknown && (p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many")) {
			return false
		}
	}
	return true
}

// segments splits a key into its known texts around its unknown parts (one
// more text than parts, "" where two parts touch) and the parts.
func (k Key) segments() (texts []string, unknown []Part) {
	texts = []string{""}
	for _, p := range k {
		if p.Unknown {
			unknown = append(unknown, p)
			texts = append(texts, "")
			continue
		}
		texts[len(texts)-1] += p.Text
	}
	return texts, unknown
}

// linearProof decides two hashed parts that are the same but for one
// known text, a in one and b in the other, of equal length. CRC16-XMODEM
// (initial value 0, no final XOR) is linear over GF(2): for messages of
// equal length, crc(x) XOR crc(y) = crc(x XOR y). Here x XOR y is zero but
// for D = a XOR b, followed by as many zero bytes as the rest of the key
// (shifted returns true when unknown parts follow, so that count depends on
// their lengths). Leading zero bytes do not change the CRC; each trailing
// one multiplies it by x^8 modulo the polynomial. The slots, the low 14
// bits, differ by the low 14 bits of crc(D)·x^(8n): the keys are on
// different slots for every value when that is never zero, on one slot
// when it always is, and otherwise on different slots for all lengths but
// some (near-sure).
func linearProof(a, b string, shifted bool) Relation {
	d := make([]byte, len(a))
	for i := range d {
		d[i] = a[i] ^ b[i]
	}
	c := slotcalc.CRC16(d)
	if !shifted {
		if slotcalc.SlotOfCRC16(c) == 0 {
			return Same
		}
		return Different
	}
	// x is invertible modulo the polynomial, so multiplying by x^8 permutes
	// the 65536 residues: walking c's cycle meets every n.
	zero := []byte{0}
	collides, separates := false, false
	for x, steps := c, 0; steps <= 1<<16; steps++ {
		if slotcalc.SlotOfCRC16(x) == 0 {
			collides = true
		} else {
			separates = true
		}
		if x = slotcalc.UpdateCRC16(x, zero); x == c {
			break
		}
	}
	switch {
	case !collides:
		return Different
	case !separates:
		return Same
	}
	return NearSure
}

const (
	Undecided Relation = iota
	Same               // on one slot for every value
	Different          // on different slots for every value
	NearSure           // on different slots for all but about 1 in 16384 values
)
