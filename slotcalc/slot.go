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
	// Keys of 8 to 16 bytes, the commonest size, are hashed here, with no
	// call: on keys this short a call is a large part of the cost. With a
	// zero initial register, byte i of an n-byte key contributes
	// crcTables[n-1-i][key[i]] whatever the others are, so all lookups are
	// independent; their high halves say whether a '{' was among the bytes,
	// in which case the key may have a tag and takes the general path.
	n := len(key)
	t := crcTables
	if n == 8 {
		k := (*[8]byte)(key)
		x := ((t[7][k[0]] ^ t[6][k[1]]) ^ (t[5][k[2]] ^ t[4][k[3]])) ^
			((t[3][k[4]] ^ t[2][k[5]]) ^ (t[1][k[6]] ^ t[0][k[7]]))
		if x < 1<<16 {
			return int(x & (SlotCount - 1))
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
			return int(x & (SlotCount - 1))
		}
	}
	return slotGeneral(key)
}

// slotGeneral is SlotBytes for any key: find the tag, then CRC what is hashed.
func slotGeneral(key []byte) int {
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
