package slotcalc

import (
	"bytes"
	"strings"
)

// SlotCount is the number of hash slots in a Redis Cluster.
const SlotCount = 16384

// SlotOfCRC16 returns the slot of a hashed part whose CRC16 is crc.
func SlotOfCRC16(crc uint16) int { return int(crc & (SlotCount - 1)) }

// Slot returns the hash slot of key, as CLUSTER KEYSLOT answers it.
func Slot(key string) int {
	if start, end, ok := tagBounds(key); ok {
		key = key[start:end]
	}
	return SlotOfCRC16(UpdateCRC16(0, stringBytes(key)))
}

// SlotBytes is [Slot] for a key held as bytes.
func SlotBytes(key []byte) int {
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
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return 0, 0, false
	}
	closeRel := strings.IndexByte(key[open+1:], '}')
	if closeRel <= 0 { // no '}', or "{}"
		return 0, 0, false
	}
	return open + 1, open + 1 + closeRel, true
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
