package slotcalc

import (
	"math/rand/v2"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// TestLiveServerKeyslot asks the live cluster-enabled server for CLUSTER
// KEYSLOT of random brace-heavy keys and requires every answer to match.
func TestLiveServerKeyslot(t *testing.T) {
	addr := redistest.Addr(t)
	conn, err := redistest.Dial(addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	defer conn.Close()

	// First, the shapes that broke other clients' slot functions: an empty
	// tag followed by more braces (two JavaScript clients hashed only part
	// of such keys).
	for _, k := range emptyTagShapes {
		conn.Send("CLUSTER", "KEYSLOT", k.key)
	}
	if err := conn.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, k := range emptyTagShapes {
		reply, err := conn.Receive()
		if err != nil {
			t.Fatalf("CLUSTER KEYSLOT %q: %v", k.key, err)
		}
		if server, _ := reply.(int64); int(server) != k.slot || Slot(k.key) != k.slot {
			t.Errorf("%q: Slot %d, pinned %d, server %v", k.key, Slot(k.key), k.slot, reply)
		}
	}

	const total, batch = 120_000, 10_000
	// Braces and ':' dominate so that tags, empty tags, unclosed and doubled
	// tags all occur often; bytes ≥ 0x80 exercise the high table entries.
	alphabet := []byte("{{{}}}::abcxyzAZ0189\x80\xa7\xfe\xff")
	rng := rand.New(rand.NewPCG(2026, 11))
	keys := make([]string, batch)
	mismatches := 0
	for done := 0; done < total; done += batch {
		for i := range keys {
			n := rng.IntN(24)
			if rng.IntN(20) == 0 {
				n = 24 + rng.IntN(300) // some keys long enough for every kernel block
			}
			k := make([]byte, n)
			for j := range k {
				k[j] = alphabet[rng.IntN(len(alphabet))]
			}
			keys[i] = string(k)
			conn.Send("CLUSTER", "KEYSLOT", keys[i])
		}
		if err := conn.Flush(); err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			reply, err := conn.Receive()
			if err != nil {
				t.Fatalf("CLUSTER KEYSLOT %q: %v", k, err)
			}
			server, ok := reply.(int64)
			if !ok {
				t.Fatalf("CLUSTER KEYSLOT %q: reply %#v is not an integer", k, reply)
			}
			if got := Slot(k); got != int(server) {
				mismatches++
				if mismatches <= 20 {
					t.Errorf("Slot(%q) = %d, server says %d", k, got, server)
				}
			}
		}
	}
	t.Logf("compared %d keys with CLUSTER KEYSLOT on %s: %d mismatches", total, addr, mismatches)
	if mismatches > 0 {
		t.Fatalf("%d of %d keys disagree with the server", mismatches, total)
	}
}
