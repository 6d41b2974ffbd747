package slotcalc

import "unsafe"

// poly is the CCITT polynomial x^16 + x^12 + x^5 + 1 that Redis uses.
const poly = 0x1021

// crcTables[k][b] holds, in its low 16 bits, the CRC contribution of byte b
// followed by k zero bytes, starting from a zero register; crcTables[0] is
// the classic byte-at-a-time table. Bit 16+k is set when b is '{': XORing
// the lookups of up to 16 bytes, each from its own table, then leaves a
// non-zero high half exactly when one of the bytes is a '{', so the kernel
// learns whether a key may have a hash tag from the lookups that hash it,
// with no separate scan.
//
// The tables are data in the binary (crc16_tables.go, written by
// TestCRCTables from makeTables with CROSSSLOT_WRITE_TABLES=1), not computed
// at start: a tool that links this package starts once per package go vet
// checks.
var crcTables = &crcTableData

// CRC16 returns the XMODEM CRC16 of p, the checksum Redis hashes keys with.
func CRC16(p []byte) uint16 { return UpdateCRC16(0, p) }

// CRC16String is [CRC16] for a string.
func CRC16String(s string) uint16 { return UpdateCRC16(0, stringBytes(s)) }

// UpdateCRC16 returns the CRC16 of the bytes that gave crc followed by p, so a
// key can be hashed piece by piece:
//
//	UpdateCRC16(CRC16(a), b) == CRC16(append(a, b...))
func UpdateCRC16(crc uint16, p []byte) uint16 { return crc16Of(crc, p, false) }

// UpdateCRC16String is [UpdateCRC16] for a string.
func UpdateCRC16String(crc uint16, s string) uint16 {
	return UpdateCRC16(crc, stringBytes(s))
}

// stringBytes views s as a byte slice without copying it. The kernel only
// reads its input, so the string's immutability is kept.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
