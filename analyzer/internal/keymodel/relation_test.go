package keymodel

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/slotcalc"
)

// template builds a key from known texts and unknown parts named u0, u1, ...
// between them (brace-free values, as relate requires).
func template(texts ...string) Key {
	var k Key
	for i, t := range texts {
		if i > 0 {
			k = Concat(k, UnknownKey(Part{ID: "u" + strconv.Itoa(i-1), Show: "u" + strconv.Itoa(i-1), NoBrace: true}))
		}
		k = Concat(k, TextKey(t))
	}
	return k
}

// fill puts values in a template's unknown parts.
func fill(k Key, values map[string]string) string {
	var b strings.Builder
	for _, p := range k {
		if p.Unknown {
			b.WriteString(values[p.ID])
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

const valueChars = "abcdefghijklmnopqrstuvwxyz0123456789:-_."

func randomText(r *rand.Rand, max int) string {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = valueChars[r.IntN(len(valueChars))]
	}
	return string(b)
}

// TestRelateAgainstBruteForce draws template pairs that share their unknown
// parts (the same known texts; one text changed in place, the linearity
// case; or one text of another length) and checks each verdict on random
// values of random lengths: "different for every value" never meets a
// shared slot, "same" never meets two, and near-sure pairs share a slot
// about once in 16384.
func TestRelateAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const pairs, samples = 3000, 400
	count := map[Relation]int{}
	collisions, nearSureSamples := 0, 0
	swept, sweptNearSure := 0, 0
	for range pairs {
		parts := 1 + r.IntN(3)
		texts := make([]string, parts+1)
		for i := range texts {
			texts[i] = randomText(r, 8)
		}
		other := append([]string(nil), texts...)
		i := r.IntN(len(other))
		switch r.IntN(3) {
		case 0: // the same length, other bytes: linearity decides
			if other[i] == "" {
				other[i] = "x"
				texts[i] = "y"
			}
			b := []byte(other[i])
			b[r.IntN(len(b))] ^= byte(1 + r.IntN(31))
			other[i] = string(b)
		case 1: // another length
			other[i] += randomText(r, 3) + "z"
		}
		a, b := template(texts...), template(other...)
		rel := Relate(a, b)
		count[rel]++
		if parts == 1 && len(texts[0]) == len(other[0]) && texts[0] != other[0] && texts[1] == other[1] {
			// The difference is before the unknown part, so its length
			// shifts it: sweep every length, independently of the proof.
			swept++
			hits := sweepLengths(texts[0], other[0], texts[1], 70000)
			switch {
			case rel == Different && hits > 0:
				t.Fatalf("%q and %q: proved different, but share a slot at %d value lengths", a, b, hits)
			case rel == NearSure && hits == 0:
				t.Fatalf("%q and %q: near-sure, but no length up to 70000 puts them on one slot", a, b)
			case rel == NearSure:
				sweptNearSure++
			}
		}
		for range samples {
			values := map[string]string{}
			for p := range parts {
				values["u"+strconv.Itoa(p)] = randomText(r, 24)
			}
			same := slotcalc.Slot(fill(a, values)) == slotcalc.Slot(fill(b, values))
			switch {
			case rel == Different && same:
				t.Fatalf("%q and %q: proved different, but both are on slot %d for %v", a, b, slotcalc.Slot(fill(a, values)), values)
			case rel == Same && !same:
				t.Fatalf("%q and %q: proved same, but not for %v", a, b, values)
			case rel == NearSure:
				nearSureSamples++
				if same {
					collisions++
				}
			case rel == Undecided:
				t.Fatalf("%q and %q share their unknown parts, yet are unrelated", a, b)
			}
		}
	}
	t.Logf("%d pairs x %d values: %d proved different, %d proved same, %d near-sure; near-sure pairs shared a slot %d times in %d values",
		pairs, samples, count[Different], count[Same], count[NearSure], collisions, nearSureSamples)
	t.Logf("%d pairs differing before their unknown part swept over value lengths 0-70000: every verdict held (%d near-sure ones do share a slot at some length)", swept, sweptNearSure)
	if swept < 50 || sweptNearSure == 0 {
		t.Errorf("swept %d pairs, %d near-sure: too few", swept, sweptNearSure)
	}
	if count[Different] < pairs/10 || count[NearSure] < pairs/10 || count[Same] < pairs/10 {
		t.Errorf("the draw exercised too few verdicts of some kind: %v", count)
	}
	if limit := nearSureSamples/16384*4 + 4; collisions > limit {
		t.Errorf("near-sure pairs shared a slot %d times in %d values, more than %d", collisions, nearSureSamples, limit)
	}
}

// sweepLengths counts the lengths L up to max at which a0+v+tail and
// b0+v+tail, v = L bytes 'a', are on one slot, extending each CRC by one
// byte per length.
func sweepLengths(a0, b0, tail string, max int) int {
	ca, cb := slotcalc.CRC16String(a0), slotcalc.CRC16String(b0)
	fill := []byte{'a'}
	hits := 0
	for range max {
		if slotcalc.SlotOfCRC16(slotcalc.UpdateCRC16String(ca, tail)) == slotcalc.SlotOfCRC16(slotcalc.UpdateCRC16String(cb, tail)) {
			hits++
		}
		ca, cb = slotcalc.UpdateCRC16(ca, fill), slotcalc.UpdateCRC16(cb, fill)
	}
	return hits
}

// TestRelateExamples pins the examples, checked on every id up to
// a million: order:%d:items and order:%d:total never share a slot;
// user:%d:profile and user:%d:settings do, for about 1 in 16384 ids.
func TestRelateExamples(t *testing.T) {
	id := UnknownKey(Part{ID: "id", Show: "id", NoBrace: true, NonEmpty: true})
	k := func(a, b string) Key { return Concat(TextKey(a), id, TextKey(b)) }
	items, total := k("order:", ":items"), k("order:", ":total")
	profile, settings := k("user:", ":profile"), k("user:", ":settings")
	if got := Relate(items, total); got != Different {
		t.Errorf("order:id:items, order:id:total: %v, want proved different", got)
	}
	if got := Relate(profile, settings); got != NearSure {
		t.Errorf("user:id:profile, user:id:settings: %v, want near-sure", got)
	}
	if got := Relate(k("user:{", "}:a"), k("user:{", "}:b")); got != Same {
		t.Errorf("user:{id}:a, user:{id}:b: %v, want same", got)
	}
	other := Concat(TextKey("order:"), UnknownKey(Part{ID: "other", NoBrace: true}), TextKey(":total"))
	if got := Relate(items, other); got != Undecided {
		t.Errorf("different unknown parts: %v, want unknown", got)
	}
	const ids = 1_000_000
	same := 0
	for n := range ids {
		s := strconv.Itoa(n)
		if slotcalc.Slot("order:"+s+":items") == slotcalc.Slot("order:"+s+":total") {
			t.Fatalf("order:%s:items and order:%s:total share a slot", s, s)
		}
		if slotcalc.Slot("user:"+s+":profile") == slotcalc.Slot("user:"+s+":settings") {
			same++
		}
	}
	t.Logf("ids 0..%d: order:id:items/total never share a slot; user:id:profile/settings share one for %d ids (1 in %d)", ids-1, same, ids/max(same, 1))
	if same == 0 || same > ids/16384*3 {
		t.Errorf("user:id:profile/settings share a slot for %d of %d ids, want about 1 in 16384", same, ids)
	}
}

// TestTagOfOneValueThatMayBeEmpty: "log:{"+ch+"}" is the whole key when ch
// is "" and ch otherwise. Both cases are weighed, with ch in both keys the
// same value, and checked by brute force on values including "".
func TestTagOfOneValueThatMayBeEmpty(t *testing.T) {
	ch := UnknownKey(Part{ID: "ch", Show: "ch", NoBrace: true})
	tagged := func(before, after string) Key { return Concat(TextKey(before+"{"), ch, TextKey("}"+after)) }
	cases := []struct {
		x, y Key
		want Relation
	}{
		{tagged("log:", ""), Key{}, NearSure},                      // "" is slot 0; ch's slot varies
		{tagged("log:", ""), tagged("dedup:", ":t"), Undecided},    // one tag when ch is set, two keys when it is ""
		{tagged("log:", ""), TextKey("x"), NearSure},               // a fixed key beside it
		{tagged("a:", ""), Concat(TextKey("b:"), ch), NearSure},    // ch beside its own tag
		{Concat(TextKey("{"), ch, TextKey("}")), Key{}, Undecided}, // "{}" when ch is "", slot of "{}" vs 0: decided only by slot
	}
	for _, c := range cases {
		got := relateEitherTag(c.x, c.y)
		if c.want == Undecided {
			if got == Different {
				t.Errorf("relateEitherTag(%s, %s) = Different, want no proof", c.x.Quoted(), c.y.Quoted())
			}
			continue
		}
		if got != c.want {
			t.Errorf("relateEitherTag(%s, %s) = %v, want %v", c.x.Quoted(), c.y.Quoted(), got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		if c.want != NearSure {
			continue
		}
		same := 0
		const samples = 20000
		for n := range samples {
			v := ""
			if n%10 != 0 {
				v = randomText(r, 8) + strconv.Itoa(n) // distinct values: short ones repeat
			}
			values := map[string]string{"ch": v}
			if slotcalc.Slot(fill(c.x, values)) == slotcalc.Slot(fill(c.y, values)) {
				same++
			}
		}
		if same > 10 {
			t.Errorf("%s and %s share a slot for %d of %d values, want about 1 in 16384", c.x.Quoted(), c.y.Quoted(), same, samples)
		}
	}
}
