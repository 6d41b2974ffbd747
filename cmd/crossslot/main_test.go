package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// crossslotBin is the command under test, built once by TestMain.
var crossslotBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crossslot-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	crossslotBin = filepath.Join(dir, "crossslot")
	if out, err := exec.Command("go", "build", "-o", crossslotBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixtureEnv is the environment for commands run in the fixture modules,
// which require the real go-redis through the module proxy.
func fixtureEnv() []string { return cmdtest.ModuleEnv() }

// runIn runs a command in dir; see cmdtest.Run.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return cmdtest.Run(t, dir, env, name, args...)
}
