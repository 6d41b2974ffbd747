package main

// Exit codes of the standalone command, for CI:
const (
	exitClean       = 0 // nothing found
	exitFindings    = 1 // findings (of the checks -fail selects)
	exitUsage       = 2 // a bad flag, check name, format or argument
	exitNotAnalyzed = 3 // some packages could not be analyzed: a path that matches nothing, a load or type error
	exitLive        = 4 // keys -live could not read the live key space in full: a server unreachable or refusing, a node lost, the time limit (what was read is reported)
)
