//go:build !linux

package glideguard_test

// quietly runs f (GLIDE's core may write WARN lines to standard output).
func quietly(f func()) { f() }
