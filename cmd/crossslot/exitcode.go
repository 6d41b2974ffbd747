package main

import "github.com/crossslot/crossslot/internal/finding"

// Exit codes of the standalone command, for CI:
const (
	exitClean       = 0 // nothing found
	exitFindings    = 1 // findings (of the checks -fail selects)
	exitUsage       = 2 // a bad flag, check name, format or argument
	exitNotAnalyzed = 3 // some packages could not be analyzed: a path that matches nothing, a load or type error
	exitInternal    = 5 // crossslot failed on a package (an internal error, reported with its first frames): that package is not checked; a bug to report. It wins over 1 and 3
	exitLive        = 4 // keys -live could not read the live key space in full: a server unreachable or refusing, a node lost, the time limit (what was read is reported)
)

// notAnalyzedExit is the exit code for packages that could not be
// analyzed: exitInternal when crossslot failed on one of them, else
// exitNotAnalyzed.
func notAnalyzedExit(notAnalyzed []finding.Finding) int {
	for _, f := range notAnalyzed {
		if f.Internal() {
			return exitInternal
		}
	}
	return exitNotAnalyzed
}
