package commands

import "sync"

// Newer holds the commands with keys that came after Redis 7.0.15, whose
// COMMAND reply generates Table (Debian ships no newer server to ask): each
// from its key spec in the servers' command documentation (the
// src/commands/NAME.json both servers generate COMMAND from), with the
// first release that has it. Lookup reads Table first, then Newer; a test
// checks that the live server knows none of them (else they belong in the
// generated table) and that every command go-redis v9.23 sends is in one
// of the two or known to take no key.
var Newer = sync.OnceValue(func() map[string]NewerCommand {
	return map[string]NewerCommand{
		// Hash field expiration: Redis 7.4 (HGETDEL, HGETEX, HSETEX 8.0),
		// Valkey 9.0. One key.
		"HEXPIRE":      {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-6)},
		"HPEXPIRE":     {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-6)},
		"HEXPIREAT":    {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-6)},
		"HPEXPIREAT":   {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-6)},
		"HPERSIST":     {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-5)},
		"HTTL":         {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-5)},
		"HPTTL":        {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-5)},
		"HEXPIRETIME":  {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-5)},
		"HPEXPIRETIME": {Since: "Redis 7.4, Valkey 9.0", Command: oneKey(-5)},
		"HGETDEL":      {Since: "Redis 8.0", Command: oneKey(-5)},
		"HGETEX":       {Since: "Redis 8.0, Valkey 9.0", Command: oneKey(-5)},
		"HSETEX":       {Since: "Redis 8.0, Valkey 9.0", Command: oneKey(-6)},
		// Streams: Redis 8.2. One key.
		"XDELEX":  {Since: "Redis 8.2", Command: oneKey(-5)},
		"XACKDEL": {Since: "Redis 8.2", Command: oneKey(-6)},
		// Strings: DELEX and DIGEST (Redis 8.4), DELIFEQ (Valkey 9.0) take one
		// key; MSETEX (Redis 8.4, Valkey 9.1) takes numkeys key value pairs:
		// MSETEX numkeys key value [key value ...] [NX|XX] [EX s|PX ms|...].
		"DELEX":   {Since: "Redis 8.4", Command: oneKey(-2)},
		"DIGEST":  {Since: "Redis 8.4", Command: oneKey(2)},
		"DELIFEQ": {Since: "Valkey 9.0", Command: oneKey(3)},
		"MSETEX":  {Since: "Redis 8.4, Valkey 9.1", Command: Command{Arity: -4, KeySpecs: []KeySpec{{Index: 1, KeyNum: true, FirstKey: 1, KeyStep: 2}}}},
		// Sent by go-redis v9.23 for releases after 8.4 (its documentation says
		// XNACK needs Redis 8.8): SDIFFCARD and SUNIONCARD take numkeys keys,
		// as SINTERCARD does (SUNIONCARD numkeys key [key ...] [APPROX] [LIMIT
		// n]); INCREX, XCFGSET and XNACK one key.
		"SDIFFCARD":  {Since: "Redis 8.8", Command: Command{Arity: -3, KeySpecs: []KeySpec{{Index: 1, KeyNum: true, FirstKey: 1, KeyStep: 1}}}},
		"SUNIONCARD": {Since: "Redis 8.8", Command: Command{Arity: -3, KeySpecs: []KeySpec{{Index: 1, KeyNum: true, FirstKey: 1, KeyStep: 1}}}},
		"INCREX":     {Since: "Redis 8.8", Command: oneKey(-2)},
		"XCFGSET":    {Since: "Redis 8.8", Command: oneKey(-2)},
		"XNACK":      {Since: "Redis 8.8", Command: oneKey(-6)},
	}
})

// A NewerCommand is a command of a release after the generated table's.
type NewerCommand struct {
	Since string // the first releases that have it
	Command
}

func oneKey(arity int) Command {
	return Command{Arity: arity, KeySpecs: []KeySpec{{Index: 1, KeyStep: 1}}}
}
