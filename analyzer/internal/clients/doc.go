// Package clients knows where each Redis client's keys are: the tables and
// rules that say, for a call of go-redis (goredis.go, rules.go),
// rueidis and valkey-go (rueidis.go) or redigo and redisc (redigo.go), which
// arguments are keys, which command a raw command line runs, and any call
// read as the command line it sends (commandline.go, with the server's key
// specs in internal/commands), which value holds a
// script's text (scripttext.go), and which client types talk to one node.
// Recognize (recognize.go) tells which client a call calls; a Site (site.go)
// is one call as these rules read it.
//
// It recognizes calls and reads their keys (with eval); it decides nothing:
// whether a call is checked, and what is reported, is the analyzer
// package's, and what a cluster refuses besides CROSSSLOT is readiness's.
// It imports eval, keymodel, ssaread and internal/commands, and must not
// import readiness, reading or the analyzer package.
package clients
