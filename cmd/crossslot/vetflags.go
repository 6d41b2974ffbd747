package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/crossslot/crossslot/analyzer"
)

// A bad analyzer flag under go vet (-crossslot.target=bogus). go vet asks
// the tool for its flags (-flags) without the user's, so a value cannot be
// refused then: the first the tool sees of it is the run of each package,
// one process a package, the standard library's dependencies first, each
// failure printed under its package's heading (# internal/unsafeheader)
// and unitchecker's usage after it. The heading is the go command's: the
// tool cannot change it, only choose which of its runs speaks. So it
// checks the flags itself before unitchecker parses them: a package go vet
// runs only for its facts ends quietly, without facts (go vet then caches
// nothing for it); of the packages the user asked for, the first to run
// says the error, once, and fails the run; the others end quietly, as
// their analysis would be refused for the same flag. The error names the
// flag, its value and the values it takes, and says that it is no
// package's.

// vetFlagError is the first -crossslot.NAME flag of a unit's arguments
// whose value the analyzer refuses, as -NAME=VALUE, and why; "" when
// there is none.
func vetFlagError(args []string) (flag, why string) {
	flags := analyzer.New(&analyzer.Config{}).Flags
	prefix := analyzer.Analyzer.Name + "."
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		name, value, given := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		short, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		f := flags.Lookup(short)
		if f == nil {
			continue // an unknown flag: go vet refuses it before running the tool
		}
		boolean := false
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			boolean = true
		}
		if !given {
			if boolean || i+1 == len(args) {
				continue
			}
			i++
			value = args[i]
		}
		if err := f.Value.Set(value); err != nil {
			if boolean {
				return "-" + name + "=" + value, "a switch is true or false, or given alone for true"
			}
			return "-" + name + "=" + value, err.Error()
		}
	}
	return "", ""
}

// refuseVetFlags ends a go vet unit whose analyzer flags are bad, before
// unitchecker parses them: with the error and exit 2 (as the standalone
// command exits on a bad flag) for the first package of the run the user
// asked for, quietly with exit 0 for the others. It returns for good
// flags.
func refuseVetFlags(args []string, stderr io.Writer) {
	flag, why := vetFlagError(args)
	if flag == "" {
		return
	}
	if factsOnly(args) || !sayOnce(args[len(args)-1]) {
		os.Exit(0) // the run fails where it is said
	}
	fmt.Fprintf(stderr, "crossslot: %s, for every package of the run (none is analyzed): %s\n", flag, why)
	os.Exit(exitUsage)
}

// goBuildObjdir is the directory of a unit's configuration in the go
// command's work directory: $WORK/b001.
var goBuildObjdir = regexp.MustCompile(`^b[0-9]+$`)

// sayOnce reports whether this unit is the first of its go vet run to say
// a flag's error: it creates a mark in the go command's work directory
// ($WORK, the parent of the unit's $WORK/b001/vet.cfg), which every unit of
// one run shares and the go command removes when it ends. A unit whose
// configuration is elsewhere (a driver other than the go command) says it.
func sayOnce(cfg string) bool {
	objdir := filepath.Dir(cfg)
	if !goBuildObjdir.MatchString(filepath.Base(objdir)) {
		return true
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(objdir), "crossslot-bad-flag"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return !os.IsExist(err)
	}
	f.Close()
	return true
}
