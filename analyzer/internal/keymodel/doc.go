// Package keymodel is what crossslot knows of a key without the code that
// builds it: a key is known text and unknown values in order (Key, Part),
// with a hash tag and a slot when the values cannot change them (tag.go);
// whether two keys share a slot is decided in one place (relation.go: the
// same template shares a slot, CRC16's linearity separates texts of equal
// length, different values and anything else are near-sure; the verdicts
// on a pair of arguments' alternatives, which every check reports), and
// worded in another (wording.go); an argument of a call carries a key's
// alternatives and where to report it (Arg), and a value's two ways, empty
// or not, never pair (guard.go).
//
// It imports slotcalc and the standard library only: no SSA, no analysis,
// no client. Everything above it reads code into keys; nothing here reads
// code.
package keymodel
