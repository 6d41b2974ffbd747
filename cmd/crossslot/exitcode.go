package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
)

// Exit codes of the standalone command, for CI:
const (
	exitClean       = 0 // nothing found
	exitFindings    = 1 // findings (of the checks -fail selects)
	exitUsage       = 2 // a bad flag, check name, format or argument
	exitNotAnalyzed = 3 // some packages could not be analyzed: a path that matches nothing, a load or type error
)

// compileProblem matches lintcmd's reports of packages it could not load or
// type-check, which it gives the category "compile", in each format: text
// ("... (compile)"), stylish ("(0, 0)  compile  ..."), JSON ("code":"compile").
var compileProblem = regexp.MustCompile(`\(compile\)$|^\s+\(\d+, \d+\)\s+compile\s|"code":"compile"`)

// withLoadCheck runs lintcmd, passing its output through, and turns its exit
// code into ours: lintcmd exits 1 both for findings and for packages it could
// not analyze, which a CI must tell apart.
func withLoadCheck(run func() int) int {
	r, w, err := os.Pipe()
	if err != nil {
		return run()
	}
	stdout := os.Stdout
	os.Stdout = w
	seen := make(chan bool)
	go func() {
		found := false
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			found = found || compileProblem.MatchString(line)
			fmt.Fprintln(stdout, line)
		}
		io.Copy(stdout, r)
		seen <- found
	}()
	code := run()
	w.Close()
	os.Stdout = stdout
	if <-seen && code != exitUsage {
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (a path that matches nothing, or a load or type error above); exit 3")
		return exitNotAnalyzed
	}
	return code
}
