// Package maps stubs golang.org/x/exp/maps for the analyzer's tests: Keys
// as it was before it returned an iterator, a slice.
package maps

func Keys[M ~map[K]V, K comparable, V any](m M) []K {
	r := make([]K, 0, len(m))
	for k := range m {
		r = append(r, k)
	}
	return r
}
