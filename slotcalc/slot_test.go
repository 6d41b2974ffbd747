package slotcalc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// vectorsPath holds 2,031 CLUSTER KEYSLOT answers of a live Redis 7.0.15,
// copied from the project's shared reference so the tests are self-contained.
const vectorsPath = "../testdata/slot-vectors.tsv"

type vector struct {
	key  string
	slot int
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	f, err := os.Open(vectorsPath)
	if err != nil {
		t.Fatalf("the server's slot vectors are required: %v", err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		slot, key, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("malformed vector line %q", sc.Text())
		}
		n, err := strconv.Atoi(slot)
		if err != nil {
			t.Fatalf("malformed slot in %q: %v", sc.Text(), err)
		}
		vs = append(vs, vector{key, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// emptyTagShapes are keys whose first tag is empty with braces after it:
// the whole key is hashed. Their slots are the server's (Redis 7.0.15's
// CLUSTER KEYSLOT; TestLiveServerKeyslot asks again).
var emptyTagShapes = []struct {
	key  string
	slot int
}{
	{"a{}b}c", 2041}, {"{}a}b", 5168}, {"x{}}y", 2083}, {"{}{a}", 13650},
	{"{}", 15257}, {"{{}}", 4092}, {"a{b}{}c", 3300}, {"}{a}", 15495},
}

func TestEmptyTagShapes(t *testing.T) {
	for _, k := range emptyTagShapes {
		if got := Slot(k.key); got != k.slot {
			t.Errorf("Slot(%q) = %d, the server says %d", k.key, got, k.slot)
		}
		if got := SlotBytes([]byte(k.key)); got != k.slot {
			t.Errorf("SlotBytes(%q) = %d, the server says %d", k.key, got, k.slot)
		}
	}
}

func TestServerVectors(t *testing.T) {
	vs := loadVectors(t)
	if len(vs) != 2031 {
		t.Fatalf("read %d vectors, want 2031", len(vs))
	}
	if vs[0].key != "" || vs[0].slot != 0 {
		t.Fatalf("first vector is %+v, want the empty key at slot 0", vs[0])
	}
	for _, v := range vs {
		if got := Slot(v.key); got != v.slot {
			t.Errorf("Slot(%q) = %d, server says %d", v.key, got, v.slot)
		}
		if got := SlotBytes([]byte(v.key)); got != v.slot {
			t.Errorf("SlotBytes(%q) = %d, server says %d", v.key, got, v.slot)
		}
		if got := redisKeyHashSlot(v.key); got != v.slot {
			t.Errorf("test reference keyHashSlot(%q) = %d, server says %d", v.key, got, v.slot)
		}
	}
}

func TestCRC16CheckValue(t *testing.T) {
	// The XMODEM check value from the CRC catalogue.
	if got := CRC16String("123456789"); got != 0x31C3 {
		t.Fatalf("CRC16String(123456789) = %#04x, want 0x31c3", got)
	}
	if got := CRC16([]byte("123456789")); got != 0x31C3 {
		t.Fatalf("CRC16(123456789) = %#04x, want 0x31c3", got)
	}
	if got := CRC16(nil); got != 0 {
		t.Fatalf("CRC16(nil) = %#04x, want 0", got)
	}
}

func TestCRC16AllLengths(t *testing.T) {
	// Every length up to 300 crosses each of the kernel's block paths
	// (16, 8, 4, 2, 1) in every combination.
	buf := make([]byte, 300)
	for i := range buf {
		buf[i] = byte(i*131 + i>>3)
	}
	for n := range len(buf) + 1 {
		if got, want := CRC16(buf[:n]), bitwiseCRC16(0, buf[:n]); got != want {
			t.Fatalf("CRC16 of %d bytes = %#04x, bitwise reference %#04x", n, got, want)
		}
	}
}

func TestSlotEveryShortLength(t *testing.T) {
	// The kernel has a path for 8 to 16 bytes, and watches for '{' in
	// blocks of 16, 8, 4, 2 and 1 bytes: check every length up to five
	// blocks, with a '{' in each position and a '}' in each one after it.
	for n := range 82 {
		key := []byte(strings.Repeat("k:\x80\xff9", 20)[:n])
		check := func(k []byte) {
			if got, want := Slot(string(k)), redisKeyHashSlot(string(k)); got != want {
				t.Fatalf("Slot(%q) = %d, reference %d", k, got, want)
			}
		}
		check(key)
		for i := range key {
			withBrace := append([]byte(nil), key...)
			withBrace[i] = '{'
			check(withBrace)
			for j := i + 1; j < n; j++ {
				withTag := append([]byte(nil), withBrace...)
				withTag[j] = '}'
				check(withTag)
			}
		}
	}
}

func TestUpdateCRC16IsIncremental(t *testing.T) {
	data := []byte("user:{12345}:profile:settings:and-more-bytes-than-one-block")
	whole := CRC16(data)
	for cut := range len(data) + 1 {
		if got := UpdateCRC16(CRC16(data[:cut]), data[cut:]); got != whole {
			t.Fatalf("split at %d: %#04x, want %#04x", cut, got, whole)
		}
		if got := UpdateCRC16String(CRC16String(string(data[:cut])), string(data[cut:])); got != whole {
			t.Fatalf("string split at %d: %#04x, want %#04x", cut, got, whole)
		}
	}
}

func TestHashTag(t *testing.T) {
	for _, tc := range []struct {
		key, tag string
		ok       bool
	}{
		{"", "", false},
		{"plain", "", false},
		{"{", "", false},
		{"}", "", false},
		{"{}", "", false},
		{"a{b", "", false},
		{"}{a}", "a", true},
		{"user:{123}:profile", "123", true},
		{"foo{}{bar}", "", false},
		{"foo{{bar}}zap", "{bar", true},
		{"{a}:{b}:key", "a", true},
		{"a{b}c{d}", "b", true},
	} {
		tag, ok := HashTag(tc.key)
		if tag != tc.tag || ok != tc.ok {
			t.Errorf("HashTag(%q) = %q, %v; want %q, %v", tc.key, tag, ok, tc.tag, tc.ok)
		}
		btag, bok := HashTagBytes([]byte(tc.key))
		if string(btag) != tc.tag || bok != tc.ok {
			t.Errorf("HashTagBytes(%q) = %q, %v; want %q, %v", tc.key, btag, bok, tc.tag, tc.ok)
		}
		want := tc.key
		if tc.ok {
			want = tc.tag
		}
		if got := HashedPart(tc.key); got != want {
			t.Errorf("HashedPart(%q) = %q, want %q", tc.key, got, want)
		}
	}
}

func TestSameSlot(t *testing.T) {
	if s, ok := SameSlot("user:{123}:profile", "user:{123}:settings"); !ok || s != 5970 {
		t.Errorf("SameSlot of one tag = %d, %v; want 5970, true", s, ok)
	}
	if s, ok := SameSlot("user:1:a", "user:2:a"); ok || s != -1 {
		t.Errorf("SameSlot of different slots = %d, %v; want -1, false", s, ok)
	}
	if s, ok := SameSlot(); ok || s != -1 {
		t.Errorf("SameSlot() = %d, %v; want -1, false", s, ok)
	}
}

func TestGrouper(t *testing.T) {
	var g Grouper
	keys := []string{"a", "{a}x", "b", "{b}y", "a", "c"}
	groups := g.Group(keys)
	type flat struct {
		slot int
		idx  string
	}
	var got []flat
	for _, gr := range groups {
		got = append(got, flat{gr.Slot, intsString(gr.Indexes)})
	}
	want := []flat{{Slot("a"), "0 1 4"}, {Slot("b"), "2 3"}, {Slot("c"), "5"}}
	if len(got) != len(want) {
		t.Fatalf("groups %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("group %d = %v, want %v", i, got[i], want[i])
		}
	}
	// Reuse: a second, different batch must not see the first one's groups.
	groups = g.Group([]string{"c", "c"})
	if len(groups) != 1 || groups[0].Slot != Slot("c") || intsString(groups[0].Indexes) != "0 1" {
		t.Errorf("second batch groups = %+v", groups)
	}
	if groups := g.Group(nil); len(groups) != 0 {
		t.Errorf("empty batch groups = %+v", groups)
	}
}

func TestGrouperGenerationWrap(t *testing.T) {
	var g Grouper
	g.Group([]string{"a"})
	g.generation = ^uint32(0) // the next call wraps the stamp counter
	groups := g.Group([]string{"b"})
	if len(groups) != 1 || groups[0].Slot != Slot("b") {
		t.Fatalf("after wrap: %+v", groups)
	}
	if groups := g.Group([]string{"a"}); len(groups) != 1 || groups[0].Slot != Slot("a") {
		t.Fatalf("after wrap, stale slot reused: %+v", groups)
	}
}

func intsString(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}

func TestZeroAllocations(t *testing.T) {
	key := "user:{123456}:profile:settings"
	bkey := []byte(key)
	keys := []string{"a", "b", "{a}c", key, "x{y}z", "q"}
	var g Grouper
	g.Group(keys) // grow the buffers once
	var sink int
	for name, f := range map[string]func(){
		"Slot":              func() { sink += Slot(key) },
		"SlotBytes":         func() { sink += SlotBytes(bkey) },
		"HashTag":           func() { tag, _ := HashTag(key); sink += len(tag) },
		"HashTagBytes":      func() { tag, _ := HashTagBytes(bkey); sink += len(tag) },
		"HashedPart":        func() { sink += len(HashedPart(key)) },
		"CRC16":             func() { sink += int(CRC16(bkey)) },
		"CRC16String":       func() { sink += int(CRC16String(key)) },
		"UpdateCRC16String": func() { sink += int(UpdateCRC16String(1, key)) },
		"SameSlot":          func() { s, _ := SameSlot(keys...); sink += s },
		"Grouper.Group":     func() { sink += len(g.Group(keys)) },
		// Runtime callers build keys in stack buffers; the kernel must not
		// make them escape (an indirect call on the way would).
		"SlotBytes on a stack buffer":    func() { sink += slotOfStackKey(byte(sink), 8) + slotOfStackKey(byte(sink), 30) },
		"HashTagBytes on a stack buffer": func() { sink += hashTagOfStackKey(byte(sink)) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %.1f times per call, want 0", name, n)
		}
	}
	_ = sink
}

func slotOfStackKey(id byte, n int) int {
	var buf [32]byte
	copy(buf[:], "user:1:profile:settings:abcdefg")
	buf[n-1] = id
	return SlotBytes(buf[:n]) + int(CRC16(buf[:n]))
}

func hashTagOfStackKey(id byte) int {
	var buf [12]byte
	copy(buf[:], "user:{1}:pro")
	buf[11] = id
	tag, _ := HashTagBytes(buf[:])
	return len(tag)
}

// bitwiseCRC16 is the CRC computed one bit at a time from the polynomial's
// definition, sharing nothing with the table kernel under test.
func bitwiseCRC16(crc uint16, p []byte) uint16 {
	for _, b := range p {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// redisKeyHashSlot transliterates Redis's keyHashSlot (cluster.h) over the
// bitwise CRC, an oracle independent of the package's tag scanning.
func redisKeyHashSlot(key string) int {
	s := 0
	for s < len(key) && key[s] != '{' {
		s++
	}
	if s == len(key) {
		return int(bitwiseCRC16(0, []byte(key)) & 0x3FFF)
	}
	e := s + 1
	for e < len(key) && key[e] != '}' {
		e++
	}
	if e == len(key) || e == s+1 {
		return int(bitwiseCRC16(0, []byte(key)) & 0x3FFF)
	}
	return int(bitwiseCRC16(0, []byte(key[s+1:e])) & 0x3FFF)
}

func FuzzSlot(f *testing.F) {
	for _, seed := range []string{"", "{", "}", "{}", "a{b}c", "foo{{bar}}zap", "user:{123}:profile", "}{a}", strings.Repeat("x{", 40)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, key string) {
		want := redisKeyHashSlot(key)
		if got := Slot(key); got != want {
			t.Fatalf("Slot(%q) = %d, reference %d", key, got, want)
		}
		if got := SlotBytes([]byte(key)); got != want {
			t.Fatalf("SlotBytes(%q) = %d, reference %d", key, got, want)
		}
		if got, ref := CRC16String(key), bitwiseCRC16(0, []byte(key)); got != ref {
			t.Fatalf("CRC16String(%q) = %#04x, reference %#04x", key, got, ref)
		}
	})
}
