package fixclause

import (
	"slices"
	"testing"
)

func TestKeysAndTwoEntities(t *testing.T) {
	for _, c := range []struct {
		message string
		a, b    string
		family  bool
		two     bool
	}{
		{`SInterStore keys "friends:<a>" and "friends:<b>" are on different hash slots for all but about 1 in 16384 pairs; x`, "friends:<a>", "friends:<b>", false, true},
		{`MULTI/EXEC keys "promo:<code>:uses" (DECR) and "promo:<code>:redeemed" (SADD) are on different hash slots; x`, "promo:<code>:uses", "promo:<code>:redeemed", false, false},
		{`MGET keys "promo:{<codes[i]>}" for two different elements of codes are on different hash slots; x`, "promo:{<codes[i]>}", "promo:{<codes[i]>}", true, true},
		{`Watch keys "a:<x>" and HGet key "b:<y>" are on different hash slots; x`, "a:<x>", "b:<y>", false, true},
		{`ZUnionStore keys "hot:global" and "hot:cat:<c>" are on different hash slots; x`, "hot:global", "hot:cat:<c>", false, false},
		{`ZUnionStore keys "lb:season:<s>:global" and "lb:archive:<strconv.Itoa(int(s))>" are on different hash slots; x`, "lb:season:<s>:global", "lb:archive:<strconv.Itoa(int(s))>", false, false},
		{`ZUnionStore keys "popular:<d.Format(\"20060102\")>" and "popular:<d>" hash by different values; x`, `popular:<d.Format("20060102")>`, "popular:<d>", false, false},
		{`MGet keys "inventory:1" (slot 2556) and "inventory:2" (slot 14751) are on different hash slots; x`, "inventory:1", "inventory:2", false, true},
		{`MGet keys "user:1:a" (slot 323) and "user:1:b" (slot 6163) are on different hash slots; x`, "user:1:a", "user:1:b", false, false},
		{`MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots; x`, "user:1:a", "user:2:a", false, true},
		{`Del keys "cart:42" and "orders:42" are on different hash slots; x`, "cart:42", "orders:42", false, false},
		{`Rename keys "<ns>:parcel:<p>" and "<ns>:{st-<st>}:parcel:<p>" are on different hash slots; x`, "<ns>:parcel:<p>", "<ns>:{st-<st>}:parcel:<p>", false, false},
		{`SUnion keys "lb:<g>:<week*7+0>" and "lb:<g>:<week*7+1>" are on different hash slots; x`, "lb:<g>:<week*7+0>", "lb:<g>:<week*7+1>", false, true},
	} {
		a, b, family, ok := Keys(c.message)
		if !ok || a != c.a || b != c.b || family != c.family {
			t.Errorf("Keys(%q) = %q, %q, %v, %v; want %q, %q, %v", c.message, a, b, family, ok, c.a, c.b, c.family)
		}
		if got := TwoEntities(a, b, family); got != c.two {
			t.Errorf("TwoEntities(%q, %q, %v) = %v, want %v", a, b, family, got, c.two)
		}
	}
}

func TestSharedTag(t *testing.T) {
	shared := []string{
		"give both keys one hash tag",
		"give both keys one hash tag, such as {uv}",
		`make id their hash tag, as in "order:{<id>}:items"`,
		`make u the hash tag of "checkout:<u>:items" too, as in "checkout:{<u>}:items"`,
		`give them the hash tag {user:1}, as in "{user:1}:profile"`,
		"send one call per slot, or give keys that belong together one hash tag",
		"give every key one hash tag, or run the command per key and combine the results in the client",
		"give the watched keys and the callback's keys one hash tag",
		"give the script's keys the declared keys' hash tag",
		"if the write must be atomic, give the keys one hash tag",
		"send it outside the atomic batch, where GLIDE splits it per slot, or give the keys one hash tag",
	}
	apart := []string{
		"send one call per slot, since one hash tag for every such key would put them all on one slot",
		"read each key, compute the result in the client and write it to the destination, or tag both keys with an entity both belong to (a group, a room, a month) rather than one constant tag, which would put every such key on one slot",
		"co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox (atomicity cannot hold across slots)",
		"group the keys by slot (slotcalc.Slot) and send one call per slot",
		"move the data in the client (read, write, then delete the source), or tag both keys with an entity they share (one tag for both, such as {acct}, would put every such key on one slot)",
	}
	for _, c := range shared {
		if !SharedTag(c) {
			t.Errorf("SharedTag(%q) = false, want true", c)
		}
	}
	for _, c := range apart {
		if SharedTag(c) {
			t.Errorf("SharedTag(%q) = true, want false", c)
		}
	}
}

func TestHotProposals(t *testing.T) {
	for _, c := range []struct {
		message string
		want    []string
	}{
		{`Rename keys "hot:global" and "hot:cat:<c>" are on different hash slots; give both keys one hash tag, such as {hot}`, []string{"{hot}"}},
		{`Rename keys "report:today" and "report:yesterday" are on different hash slots; give both keys one hash tag, such as {report}`, nil},
		{`MGet keys "bal:<a>:cur" and "bal:<a>:prev" are on different hash slots; make a their hash tag, as in "bal:{<a>}:cur"`, nil},
		{`MGet keys "a" and "b" are on different hash slots; make it so, as in "{feed}:<u>"`, []string{"{feed}:<u>"}},
		{`MGet keys "a:<x>" and "b:<x>" are on different hash slots; make x their hash tag, as in "a:{<m{1}>}"`, nil},
		{`Rename keys "<p>:a" and "<p>:b" hash by different values; give keys that belong together one hash tag (user:{<id>}:a, user:{<id>}:b)`, nil},
		{`Rename keys "acct:<a>" and "acct:<b>" are on different hash slots; move the data in the client, or tag both keys with an entity they share (one tag for both, such as {acct}, would put every such key on one slot)`, nil},
	} {
		if got := HotProposals(c.message); !slices.Equal(got, c.want) {
			t.Errorf("HotProposals(%q) = %q, want %q", c.message, got, c.want)
		}
	}
}
