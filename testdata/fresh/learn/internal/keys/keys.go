// Package keys holds the small helpers our services use to name Redis keys.
//
// Historically every key was "<ns>:<entity>:<id>:<field>". For the move to Redis
// Cluster new keys put the owning entity's id in a hash tag
// ("<ns>:<entity>:{<id>}:<field>") so that an entity's keys share a slot.
package keys

import (
	"iter"
	"strings"
)

// Space is a key namespace, such as "lrn" or "pay".
type Space string

// Join builds "<space>:<part>:<part>...".
func (s Space) Join(parts ...string) string {
	if s == "" {
		return strings.Join(parts, ":")
	}
	return string(s) + ":" + strings.Join(parts, ":")
}

// Tagged builds "<space>:<entity>:{<id>}:<rest...>", the cluster-friendly layout.
func (s Space) Tagged(entity, id string, rest ...string) string {
	k := s.Join(entity, Tag(id))
	if len(rest) > 0 {
		k += ":" + strings.Join(rest, ":")
	}
	return k
}

// Tag wraps id in braces.
func Tag(id string) string { return "{" + id + "}" }

// Map turns a slice of ids into keys.
func Map[T any](xs []T, key func(T) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, key(x))
	}
	return out
}

// Collect turns a sequence of ids into keys.
func Collect[T any](seq iter.Seq[T], key func(T) string) []string {
	var out []string
	for x := range seq {
		out = append(out, key(x))
	}
	return out
}

// Strings converts a slice of a string-based type.
func Strings[S ~string](xs []S) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}
