// Package ssaread answers the small questions that every layer of crossslot
// asks of SSA code: which constant a value is, which elements a slice
// literal holds, what a call calls, which package declares a function,
// whether a type is a given named type (values.go, calls.go).
//
// It knows nothing of keys or clients and imports only golang.org/x/tools's
// SSA and the standard library.
package ssaread
