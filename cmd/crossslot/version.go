package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// version is the module version the binary was built from ("devel" in a
// checkout).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return "devel"
	}
	// A release (go install ...@v1.2.3, go get -tool), or, built in a
	// checkout, the pseudo-version the go command stamps from the VCS:
	// v0.0.0-DATE-REVISION, with +dirty for uncommitted changes.
	return info.Main.Version
}

// printVersion answers -version. lintcmd would print "(no version)" for a
// build that carries neither a module version nor a VCS revision; this says
// why and how to get one.
func printVersion() {
	if v := version(); v != "devel" {
		fmt.Println("crossslot", v)
		return
	}
	fmt.Println("crossslot devel (no version stamped: built outside a git checkout or with -buildvcs=false; `go install -buildvcs=true ./cmd/crossslot` in a clone stamps the revision)")
}

// toolVersion answers go vet's and go fix's -V=full, which they use as the
// tool's identity for caching: the version and a hash of the executable, so
// that any rebuild is a new tool. (unitchecker's own answer says "devel
// comments-go-here".)
func toolVersion(full bool) {
	line := "crossslot version " + version()
	if full {
		h := sha256.New()
		if exe, err := os.Executable(); err == nil {
			if f, err := os.Open(exe); err == nil {
				io.Copy(h, f)
				f.Close()
			}
		}
		if cwd, err := os.Getwd(); err == nil {
			io.WriteString(h, targetDigest(cwd)) // go vet runs -V=full where it runs
		}
		line += fmt.Sprintf(" buildID=%x", h.Sum(nil))
	}
	fmt.Println(line)
}
