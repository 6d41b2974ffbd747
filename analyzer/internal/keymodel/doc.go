// Package keymodel is what crossslot knows of a key without the code that
// builds it: a key is known text and unknown values in order (Key, Part),
// with a hash tag and a slot when the values cannot change them (tag.go);
// two keys are related by proof (proof.go: the same template shares a slot,
// CRC16's linearity separates texts of equal length, anything else is
// near-sure); an argument of a call carries a key's alternatives and where
// to report it (Arg), and the verdicts on a pair of arguments (verdict.go)
// are what every check reports.
//
// It imports slotcalc and the standard library only: no SSA, no analysis,
// no client. Everything above it reads code into keys; nothing here reads
// code.
package keymodel
