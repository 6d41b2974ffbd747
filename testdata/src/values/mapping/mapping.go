// Package mapping holds generic helpers with no key of their own: their
// callers' functions make the keys.
package mapping

// Map calls f on each element of xs, in order.
func Map[T, U any](xs []T, f func(T) U) []U { // want Map:`keys p2\(p1\[i\]\) for each element of p1`
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// MapInPlace fills a slice of the length of xs.
func MapInPlace[T, U any](xs []T, f func(T) U) []U { // want MapInPlace:`keys p2\(p1\[i\]\) for each element of p1`
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// FirstOf calls f on the first element only, for every element.
func FirstOf[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for range xs {
		out = append(out, f(xs[0]))
	}
	return out
}
