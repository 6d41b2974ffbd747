package slotcalc

import "unsafe"

// poly is the CCITT polynomial x^16 + x^12 + x^5 + 1 that Redis uses.
const poly = 0x1021

// crcTables[k][b] holds, in its low 16 bits, the CRC contribution of byte b
// followed by k zero bytes, starting from a zero register; crcTables[0] is
// the classic byte-at-a-time table. Bit 16+k is set when b is '{': XORing
// the lookups of up to 16 bytes, each from its own table, then leaves a
// non-zero high half exactly when one of the bytes is a '{', so short keys
// learn whether they have a hash tag from the same lookups that hash them.
var crcTables = makeTables()

func makeTables() *[16][256]uint32 {
	t := new([16][256]uint32)
	for b := range 256 {
		crc := uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ poly
			} else {
				crc <<= 1
			}
		}
		t[0][b] = uint32(crc)
	}
	for k := 1; k < 16; k++ {
		for b := range 256 {
			prev := uint16(t[k-1][b])
			t[k][b] = uint32(prev<<8 ^ uint16(t[0][prev>>8]))
		}
	}
	for k := range 16 {
		t[k]['{'] |= 1 << (16 + k)
	}
	return t
}

// CRC16 returns the XMODEM CRC16 of p, the checksum Redis hashes keys with.
func CRC16(p []byte) uint16 { return UpdateCRC16(0, p) }

// CRC16String is [CRC16] for a string.
func CRC16String(s string) uint16 { return UpdateCRC16(0, stringBytes(s)) }

// UpdateCRC16 returns the CRC16 of the bytes that gave crc followed by p, so a
// key can be hashed piece by piece:
//
//	UpdateCRC16(CRC16(a), b) == CRC16(append(a, b...))
func UpdateCRC16(crc uint16, p []byte) uint16 {
	t := crcTables
	// Over a block of n ≥ 2 bytes the register's two bytes are folded into the
	// first two input bytes; byte i then passes through n-1-i more byte steps,
	// which table n-1-i has precomputed. The lookups are independent of each
	// other, so the CPU overlaps them.
	for len(p) >= 16 {
		// The fourteen lookups that do not depend on crc are summed first, in
		// a tree, so the CPU computes them while the previous block finishes;
		// only two lookups and two XORs stay on the loop-carried chain.
		rest := ((t[13][p[2]] ^ t[12][p[3]]) ^ (t[11][p[4]] ^ t[10][p[5]])) ^
			((t[9][p[6]] ^ t[8][p[7]]) ^ (t[7][p[8]] ^ t[6][p[9]])) ^
			((t[5][p[10]] ^ t[4][p[11]]) ^ (t[3][p[12]] ^ t[2][p[13]])) ^
			(t[1][p[14]] ^ t[0][p[15]])
		crc = uint16(t[15][p[0]^byte(crc>>8)] ^ t[14][p[1]^byte(crc)] ^ rest)
		p = p[16:]
	}
	if len(p) == 0 {
		return crc
	}
	if len(p) >= 8 {
		rest := (t[5][p[2]] ^ t[4][p[3]]) ^ (t[3][p[4]] ^ t[2][p[5]]) ^ (t[1][p[6]] ^ t[0][p[7]])
		crc = uint16(t[7][p[0]^byte(crc>>8)] ^ t[6][p[1]^byte(crc)] ^ rest)
		p = p[8:]
	}
	if len(p) >= 4 {
		crc = uint16(t[3][p[0]^byte(crc>>8)] ^ t[2][p[1]^byte(crc)] ^
			t[1][p[2]] ^ t[0][p[3]])
		p = p[4:]
	}
	if len(p) >= 2 {
		crc = uint16(t[1][p[0]^byte(crc>>8)] ^ t[0][p[1]^byte(crc)])
		p = p[2:]
	}
	if len(p) == 1 {
		crc = crc<<8 ^ uint16(t[0][p[0]^byte(crc>>8)])
	}
	return crc
}

// UpdateCRC16String is [UpdateCRC16] for a string.
func UpdateCRC16String(crc uint16, s string) uint16 {
	return UpdateCRC16(crc, stringBytes(s))
}

// stringBytes views s as a byte slice without copying it. The kernel only
// reads its input, so the string's immutability is kept.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
