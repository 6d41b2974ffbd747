// Package idtypes holds id types and nothing else: no client, no text. Its
// String methods pass their value on, so they are summarized for
// importers (a key written with id.String() holds the caller's id).
package idtypes

type PartyID string

func (p PartyID) String() string { return string(p) } // want String:`key p1`
