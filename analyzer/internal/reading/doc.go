// Package reading is the one reading of a package that every check of the
// analyzer shares: which calls are client commands and with which keys
// (clients, eval), which functions are key builders or wrappers (their
// summaries, exported and imported as facts), which clients talk to one
// node or surely to a cluster (asked of topology), which interfaces have
// one implementation,
// which commands make up a transaction, and what a script's Lua touches.
//
// Walk hands a function's commands, their keys, its transactions and the
// clients it makes to a Visitor, in order; the checks (the analyzer
// package's units) judge and report them. Nothing here reports a
// diagnostic: a reading decides what is there, the checks what is wrong.
// It imports clients, eval, keymodel, readiness, ssaread and topology,
// never the analyzer.
package reading
