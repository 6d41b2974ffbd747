package main

import "testing"

// TestVetFlagError: the first analyzer flag whose value is refused, written
// as one argument or two; a switch with a value that is no boolean; good
// values, other tools' flags and unknown flags pass (go vet refuses the
// last itself).
func TestVetFlagError(t *testing.T) {
	for _, c := range []struct {
		args      []string
		flag, why string
	}{
		{[]string{"-crossslot.target=redis:7.0", "-crossslot.strict", "-json", "-crossslot.nosuch=1", "unit.cfg"}, "", ""},
		{[]string{"-crossslot.target", "valkey:9.0", "unit.cfg"}, "", ""},
		{[]string{"-crossslot.target", "redis:7.3", "-crossslot.target=bogus", "unit.cfg"}, "-crossslot.target=redis:7.3", `"redis:7.3" is not a target: redis has no release line 7.3`},
		{[]string{"--crossslot.strict=maybe", "unit.cfg"}, "-crossslot.strict=maybe", "a switch is true or false, or given alone for true"},
	} {
		flag, why := vetFlagError(c.args)
		if flag != c.flag || len(why) < len(c.why) || why[:len(c.why)] != c.why {
			t.Errorf("vetFlagError(%q) = %q, %q; want %q, %q...", c.args, flag, why, c.flag, c.why)
		}
	}
}
