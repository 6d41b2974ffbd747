package keymodel

import "testing"

// TestOneLeadingValue: a value at the start of one key only
// ("<prefix>:{"+m+"}:lifetime" beside "tier:"+m) leaves the keys apart
// whether it holds a tag or not; beside a constant key, or where the other
// key holds the same value, its value decides, and nothing is claimed.
func TestOneLeadingValue(t *testing.T) {
	prefix := UnknownKey(Part{ID: "ledger.Prefix", Show: "ledger.Prefix", Configured: true})
	m := UnknownKey(Part{ID: "m", Show: "m"})
	lifetime := Concat(prefix, TextKey(":{"), m, TextKey("}:lifetime"))
	tier := Concat(TextKey("tier:"), m)
	claims := Claims{NearSure: true, Values: true}
	for _, tc := range []struct {
		name string
		x, y Key
		want Relation
	}{
		{"prefixed beside unprefixed", lifetime, tier, NearSure},
		{"beside a constant", lifetime, TextKey("tier:all"), Undecided},
		{"both prefixed", lifetime, Concat(prefix, TextKey(":{"), m, TextKey("}:balance")), Undecided},
		{"the prefix inside the other", lifetime, Concat(TextKey("tier:"), prefix, TextKey(":"), m), Undecided},
	} {
		d, differ := Differ(Arg{Alts: []Key{tc.x}}, Arg{Alts: []Key{tc.y}}, claims)
		if got := differ && d.NearSure; got != (tc.want == NearSure) {
			t.Errorf("%s: %s and %s: differ %v (near-sure %v), want %v", tc.name, tc.x.Quoted(), tc.y.Quoted(), differ, d.NearSure, tc.want)
		}
	}
}
