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
func Slot(key string) int { return SlotBytes(stringBytes(key)) }

// SlotBytes is [Slot] for a key held as bytes.
func SlotBytes(key []byte) int {
	if len(key) >= 8 && len(key) <= 16 {
		if crc, ok := crc16NoBrace(key); ok {
			return SlotOfCRC16(crc)
		}
	}
	if start, end, ok := tagBoundsBytes(key); ok {
		key = key[start:end]
	}
	return SlotOfCRC16(UpdateCRC16(0, key))
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

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
	braces   = '{' * lowBits
)

// crc16NoBrace is the fast path for keys of 8 to 16 bytes, the most common
// size: it returns the CRC16 of p and true when p has no '{' (so the whole key
// is hashed), reading p as two possibly overlapping words. With a zero initial
// register, byte i of an n-byte input contributes crcTables[n-1-i][p[i]]
// whatever the others are, so all lookups are independent.
func crc16NoBrace(p []byte) (uint16, bool) {
	n := len(p)
	if n < 8 || n > 16 {
		return 0, false
	}
	lo := binary.LittleEndian.Uint64(p)
	hi := binary.LittleEndian.Uint64(p[n-8:])
	xlo, xhi := lo^braces, hi^braces
	if ((xlo-lowBits)&^xlo|(xhi-lowBits)&^xhi)&highBits != 0 {
		return 0, false
	}
	// Zero bytes contribute nothing (every table maps 0 to 0), so shifting lo
	// up by the 8-k bytes that hi already covers leaves p[0:k] in lo's top k
	// bytes, each in the lane whose table it needs: sixteen fixed lookups,
	// no loop and no branch.
	// Lane j of hi, byte n-8+j, needs table 7-j.
	t := crcTables
	crc := ((t[7][byte(hi)] ^ t[6][byte(hi>>8)]) ^ (t[5][byte(hi>>16)] ^ t[4][byte(hi>>24)])) ^
		((t[3][byte(hi>>32)] ^ t[2][byte(hi>>40)]) ^ (t[1][byte(hi>>48)] ^ t[0][byte(hi>>56)]))
	if n > 8 {
		// The first n-8 bytes, which hi does not reach, are shifted to the
		// top of lo, into the lanes of tables 15..8; the lanes left empty hold
		// zero bytes, which every table maps to 0.
		lo <<= 8 * uint(16-n)
		crc ^= ((t[15][byte(lo)] ^ t[14][byte(lo>>8)]) ^ (t[13][byte(lo>>16)] ^ t[12][byte(lo>>24)])) ^
			((t[11][byte(lo>>32)] ^ t[10][byte(lo>>40)]) ^ (t[9][byte(lo>>48)] ^ t[8][byte(lo>>56)]))
	}
	return crc, true
}
