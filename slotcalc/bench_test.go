package slotcalc

import (
	"fmt"
	"strings"
	"testing"
)

// baselineTable and baselineSlot are the byte-at-a-time technique go-redis,
// rueidis, redisc and Redis itself use: one table lookup per byte, each
// depending on the one before. Benchmarks report the package against it.
var baselineTable = func() (t [256]uint16) {
	for b := range 256 {
		t[b] = bitwiseCRC16(0, []byte{byte(b)})
	}
	return t
}()

func baselineSlot(key string) int {
	if s := strings.IndexByte(key, '{'); s > -1 {
		if e := strings.IndexByte(key[s+1:], '}'); e > 0 {
			key = key[s+1 : s+e+1]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc = crc<<8 ^ baselineTable[byte(crc>>8)^key[i]]
	}
	return int(crc & 0x3FFF)
}

func TestBaselineMatchesServer(t *testing.T) {
	for _, v := range loadVectors(t) {
		if got := baselineSlot(v.key); got != v.slot {
			t.Fatalf("baselineSlot(%q) = %d, server says %d", v.key, got, v.slot)
		}
	}
}

var benchLengths = []int{8, 16, 24, 40, 64, 256, 4096}

// benchKeys returns 64 distinct keys of length n, with no hash tag so the
// whole key is hashed (the tag-free case is the one that costs).
func benchKeys(n int) []string {
	keys := make([]string, 64)
	for i := range keys {
		b := []byte(strings.Repeat("user:profile:", n/13+1)[:n])
		for j := 0; j < n; j += 7 {
			b[j] = byte('a' + (i+j)%26)
		}
		keys[i] = string(b)
	}
	return keys
}

var benchSink int

// BenchmarkSlot compares Slot with the byte-at-a-time baseline in one run:
//
//	go test -run=^$ -bench=BenchmarkSlot -count=8 ./slotcalc > slot.txt
//	benchstat -col /impl slot.txt
//
// Each implementation is called directly, as callers do; a call through a
// func value would add the same fixed cost (about 1.5 ns here) to both and
// hide the difference on short keys.
func BenchmarkSlot(b *testing.B) {
	for _, n := range benchLengths {
		keys := benchKeys(n)
		b.Run(fmt.Sprintf("len=%d/impl=baseline", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			s := 0
			for i := 0; b.Loop(); i++ {
				s += baselineSlot(keys[i&63])
			}
			benchSink = s
		})
		b.Run(fmt.Sprintf("len=%d/impl=slotcalc", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			s := 0
			for i := 0; b.Loop(); i++ {
				s += Slot(keys[i&63])
			}
			benchSink = s
		})
	}
}

func BenchmarkGrouper(b *testing.B) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:{%d}:profile", i%97)
	}
	var g Grouper
	for b.Loop() {
		benchSink += len(g.Group(keys))
	}
}
