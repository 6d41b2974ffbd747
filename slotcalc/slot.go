package slotcalc

import (
	"bytes"
	"encoding/binary"
)

// SlotCount is the number of hash slots in a Redis Cluster.
const SlotCount = 16384

// SlotOfCRC16 returns the slot of a hashed part whose CRC16 is crc.
func SlotOfCRC16(crc uint16) int { return int(crc & (SlotCount - 1)) }

// Slot returns the hash slot of key, as CLUSTER KEYSLOT answers it.
func Slot(key string) int { return SlotOfCRC16(crc16Of(0, stringBytes(key), true)) }

// SlotBytes is [Slot] for a key held as bytes.
func SlotBytes(key []byte) int { return SlotOfCRC16(crc16Of(0, key, true)) }

// crc16Of is the kernel behind every checksum and slot of the package. With
// slot false it returns the CRC16 of the bytes that gave crc followed by key.
// With slot true (and crc 0) it returns the CRC16 of what Redis hashes of
// key: its hash tag, or the whole key.
//
// It calls nothing, so it needs no stack check and next to no frame, and
// Slot, SlotBytes and UpdateCRC16 are small enough to be inlined into their
// callers as one call: on an 8-byte key a second call and a full frame would
// be a fifth of the cost.
func crc16Of(crc uint16, key []byte, slot bool) uint16 {
	// Keys of 8 to 16 bytes, the commonest size, take a path of their own,
	// with no loop and no branch on the data. With a zero initial register,
	// byte i of an n-byte key contributes crcTables[n-1-i][key[i]] whatever
	// the others are, so all lookups are independent; their high halves say
	// whether a '{' was among the bytes, in which case the key may have a tag
	// and takes the general path.
	n := len(key)
	t := crcTables
	if !slot {
		// Plain CRC: no fast path, which needs a zero register.
	} else if n == 8 {
		k := (*[8]byte)(key)
		x := ((t[7][k[0]] ^ t[6][k[1]]) ^ (t[5][k[2]] ^ t[4][k[3]])) ^
			((t[3][k[4]] ^ t[2][k[5]]) ^ (t[1][k[6]] ^ t[0][k[7]]))
		if x < 1<<16 {
			return uint16(x)
		}
	} else if n > 8 && n <= 16 {
		// The last 8 bytes one by one; the first n-8, which they do not
		// reach, from a word shifted so that they sit in the lanes of tables
		// 15..8. The lanes left empty hold zero bytes, which every table maps
		// to 0: no loop, no branch.
		k := (*[8]byte)(key[n-8:])
		lo := binary.LittleEndian.Uint64(key) << (8 * uint(16-n))
		x := ((t[7][k[0]] ^ t[6][k[1]]) ^ (t[5][k[2]] ^ t[4][k[3]])) ^
			((t[3][k[4]] ^ t[2][k[5]]) ^ (t[1][k[6]] ^ t[0][k[7]])) ^
			((t[15][byte(lo)] ^ t[14][byte(lo>>8)]) ^ (t[13][byte(lo>>16)] ^ t[12][byte(lo>>24)])) ^
			((t[11][byte(lo>>32)] ^ t[10][byte(lo>>40)]) ^ (t[9][byte(lo>>48)] ^ t[8][byte(lo>>56)]))
		if x < 1<<16 {
			return uint16(x)
		}
	}

	// Anything else is hashed in 16-byte blocks, then 8, 4, 2 and 1. Over a
	// block of k bytes the register's two bytes are folded into the first two
	// input bytes; byte i then passes through k-1-i more byte steps, which
	// table k-1-i has precomputed, so the lookups are independent and the CPU
	// overlaps them. For a slot, the same pass watches for a '{': the tables
	// flag it for all but the two bytes folded with the register, which are
	// compared. A key with a '{' is hashed again, over its tag or, when it
	// has none, whole with the watch off.
	p, watch := key, slot
	for {
		brace := false
		for len(p) >= 16 {
			// The fourteen lookups that do not depend on crc are summed
			// first, in a tree, so the CPU computes them while the previous
			// block finishes; only two lookups and two XORs stay on the
			// loop-carried chain.
			rest := ((t[13][p[2]] ^ t[12][p[3]]) ^ (t[11][p[4]] ^ t[10][p[5]])) ^
				((t[9][p[6]] ^ t[8][p[7]]) ^ (t[7][p[8]] ^ t[6][p[9]])) ^
				((t[5][p[10]] ^ t[4][p[11]]) ^ (t[3][p[12]] ^ t[2][p[13]])) ^
				(t[1][p[14]] ^ t[0][p[15]])
			if watch && (rest >= 1<<16 || p[0] == '{' || p[1] == '{') {
				brace = true
				break
			}
			crc = uint16(t[15][p[0]^byte(crc>>8)] ^ t[14][p[1]^byte(crc)] ^ rest)
			p = p[16:]
		}
		if !brace && len(p) >= 8 {
			rest := (t[5][p[2]] ^ t[4][p[3]]) ^ (t[3][p[4]] ^ t[2][p[5]]) ^ (t[1][p[6]] ^ t[0][p[7]])
			if watch && (rest >= 1<<16 || p[0] == '{' || p[1] == '{') {
				brace = true
			} else {
				crc = uint16(t[7][p[0]^byte(crc>>8)] ^ t[6][p[1]^byte(crc)] ^ rest)
				p = p[8:]
			}
		}
		if !brace && len(p) >= 4 {
			rest := t[1][p[2]] ^ t[0][p[3]]
			if watch && (rest >= 1<<16 || p[0] == '{' || p[1] == '{') {
				brace = true
			} else {
				crc = uint16(t[3][p[0]^byte(crc>>8)] ^ t[2][p[1]^byte(crc)] ^ rest)
				p = p[4:]
			}
		}
		if !brace && len(p) >= 2 {
			if watch && (p[0] == '{' || p[1] == '{') {
				brace = true
			} else {
				crc = uint16(t[1][p[0]^byte(crc>>8)] ^ t[0][p[1]^byte(crc)])
				p = p[2:]
			}
		}
		if !brace && len(p) == 1 {
			if watch && p[0] == '{' {
				brace = true
			} else {
				crc = crc<<8 ^ uint16(t[0][p[0]^byte(crc>>8)])
			}
		}
		if !brace {
			return crc
		}
		// The first '{' is in the block where the watch stopped; the tag
		// ends at the first '}' after it.
		open := n - len(p)
		for key[open] != '{' {
			open++
		}
		p, watch, crc = key, false, 0
		for end := open + 1; end < n; end++ {
			if key[end] == '}' {
				if end > open+1 {
					p = key[open+1 : end]
				}
				break
			}
		}
	}
}

// HashTag returns the non-empty hash tag of key and true, or "" and false when
// the whole key is hashed: no '{', no '}' after the first '{', or "{}".
func HashTag(key string) (tag string, ok bool) {
	start, end, ok := tagBounds(key)
	if !ok {
		return "", false
	}
	return key[start:end], true
}

// HashTagBytes is [HashTag] for a key held as bytes; the tag aliases key.
func HashTagBytes(key []byte) (tag []byte, ok bool) {
	start, end, ok := tagBoundsBytes(key)
	if !ok {
		return nil, false
	}
	return key[start:end], true
}

// HashedPart returns the bytes the slot is computed from: the hash tag, or the
// whole key when it has none.
func HashedPart(key string) string {
	if start, end, ok := tagBounds(key); ok {
		return key[start:end]
	}
	return key
}

// tagBounds locates the hash tag key[start:end], mirroring Redis's keyHashSlot:
// the first '{', then the first '}' after it, and the tag must not be empty.
func tagBounds(key string) (start, end int, ok bool) {
	return tagBoundsBytes(stringBytes(key))
}

func tagBoundsBytes(key []byte) (start, end int, ok bool) {
	open := bytes.IndexByte(key, '{')
	if open < 0 {
		return 0, 0, false
	}
	closeRel := bytes.IndexByte(key[open+1:], '}')
	if closeRel <= 0 {
		return 0, 0, false
	}
	return open + 1, open + 1 + closeRel, true
}

// SameSlot reports the slot all keys share. It returns -1 and false when they
// are on different slots or when there are no keys.
func SameSlot(keys ...string) (slot int, ok bool) {
	if len(keys) == 0 {
		return -1, false
	}
	slot = Slot(keys[0])
	for _, k := range keys[1:] {
		if Slot(k) != slot {
			return -1, false
		}
	}
	return slot, true
}
