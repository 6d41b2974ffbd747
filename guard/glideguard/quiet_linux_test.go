//go:build linux

package glideguard_test

import (
	"os"
	"syscall"
)

// quietly runs f with standard output sent to /dev/null: GLIDE's Rust core
// writes a WARN line there for every error a cluster node answers, and the
// test's output is the test's. f must not log through testing meanwhile.
func quietly(f func()) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		f()
		return
	}
	defer null.Close()
	saved, err := syscall.Dup(1)
	if err != nil {
		f()
		return
	}
	defer syscall.Close(saved)
	if syscall.Dup3(int(null.Fd()), 1, 0) != nil {
		f()
		return
	}
	defer syscall.Dup3(saved, 1, 0)
	f()
}
