package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/clustertarget"
	"github.com/crossslot/crossslot/slotcalc"
)

// What a cluster refuses for what a command does, not for its keys' slots,
// worded as Redis 7.0.15 words it (checked on a three-master cluster). The
// analyzer's readiness checks and the run-time guards both read command
// lines with Refuses.

// A Refusal is one thing a cluster refuses in a command line.
type Refusal struct {
	Problem string // "database" or "sortpattern"
	// What names the refused part: "SELECT 2", "MOVE", "COPY ... DB 3",
	// `BY "w_*"` and `GET "#"` (of SORT).
	What string
	Text string // the cluster's error
	// Arg is the index in the line of the argument that decides, 0 when
	// the command itself is refused whatever its arguments (MOVE, SWAPDB).
	Arg int
	// DB is the database a database refusal is about (SELECT n, MOVE key n,
	// COPY ... DB n), -1 when none is (SWAPDB) or it is not known: a
	// cluster of several databases (Valkey 9's cluster-databases) accepts
	// the ones it has.
	DB int
	// Why says, for a SORT pattern, what the target refuses in it, as a
	// predicate: "reads keys on any slot, which a cluster refuses", or by
	// which rule of which release.
	Why string
	// IfTagless: refused unless a value the code does not fix holds a
	// brace (a pattern "<prefix>:w_*" refused unless the prefix is a tag).
	IfTagless bool
}

// The cluster's errors.
const (
	RefusedSelect  = "ERR SELECT is not allowed in cluster mode"
	RefusedCopyDB  = "ERR Copying to another database is not allowed in cluster mode"
	RefusedSortBy  = "ERR BY option of SORT denied in Cluster mode."
	RefusedSortGet = "ERR GET option of SORT denied in Cluster mode."
	// From Redis 7.4 and Valkey 8.0, which accept a pattern on the sorted
	// key's slot.
	RefusedSortBySlot  = "ERR BY option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots."
	RefusedSortGetSlot = "ERR GET option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots."
)

// RefusedNames are the commands Refuses reads, upper case.
var RefusedNames = []string{"SELECT", "MOVE", "SWAPDB", "COPY", "SORT", "SORT_RO"}

// Refuses reads a command line, its name first, for what a cluster of the
// target refuses besides the keys' slots: SELECT and COPY ... DB of a
// database other than 0, MOVE and SWAPDB, SORT's BY with a pattern ('*')
// and GET (see sortPattern). undecided says that an argument that decides
// is not known. The databases are judged by the caller, which knows the
// target's count; DB says which one a refusal needs.
func Refuses(argv []Arg, t clustertarget.Target) (refusals []Refusal, undecided bool) {
	if len(argv) == 0 || !argv[0].Known {
		return nil, false
	}
	name := strings.ToUpper(argv[0].Text)
	switch name {
	case "SELECT":
		switch {
		case len(argv) < 2 || !argv[1].Known:
			return nil, true
		case argv[1].Text != "0":
			return []Refusal{{Problem: "database", What: "SELECT " + argv[1].Text, Text: RefusedSelect, Arg: 1, DB: dbNumber(argv[1].Text)}}, false
		}
	case "MOVE", "SWAPDB":
		db := -1
		if name == "MOVE" && len(argv) > 2 && argv[2].Known {
			db = dbNumber(argv[2].Text)
		}
		return []Refusal{{Problem: "database", What: name, Text: "ERR " + name + " is not allowed in cluster mode", DB: db}}, false
	case "COPY":
		for i := 3; i+1 < len(argv); i++ {
			if argv[i].Known && strings.EqualFold(argv[i].Text, "DB") {
				switch {
				case !argv[i+1].Known:
					return nil, true
				case argv[i+1].Text != "0":
					return []Refusal{{Problem: "database", What: "COPY ... DB " + argv[i+1].Text, Text: RefusedCopyDB, Arg: i + 1, DB: dbNumber(argv[i+1].Text)}}, false
				}
			}
		}
	case "SORT", "SORT_RO":
		for i := 2; i+1 < len(argv); i++ {
			if !argv[i].Known {
				return refusals, true // a keyword the code does not fix
			}
			switch strings.ToUpper(argv[i].Text) {
			case "BY":
				switch p := argv[i+1]; {
				case !p.Known && !p.Star:
					undecided = true
				case p.Star || strings.Contains(p.Text, "*"):
					r, unknown := sortPattern(argv, i+1, t)
					refusals, undecided = appendRefusal(refusals, r), undecided || unknown
				}
				i++
			case "GET":
				r, unknown := sortPattern(argv, i+1, t)
				refusals, undecided = appendRefusal(refusals, r), undecided || unknown
				i++
			case "LIMIT":
				i += 2
			case "STORE":
				i++
			}
		}
	}
	return refusals, undecided
}

// sortPattern judges SORT's BY pattern (one holding '*') or GET pattern at
// argv[i]. Redis before 7.4 and Valkey before 8.0 refuse every one, GET "#"
// too; from those releases one is accepted when every key it forms is on
// the sorted key's slot (slotcalc.PatternSlot, as the server's
// patternHashSlot), and GET "#" from Redis 7.4.2 and Valkey 8.1, which stop
// hashing it as a key name. unknown says that the pattern, or the sorted
// key it is compared with, is not known.
func sortPattern(argv []Arg, i int, t clustertarget.Target) (r *Refusal, unknown bool) {
	option := strings.ToUpper(argv[i-1].Text)
	p := argv[i]
	refusal := func(text, why string) *Refusal {
		what := option + " " + strconv.Quote(p.Text)
		if !p.Known {
			what = option + " pattern"
		}
		return &Refusal{Problem: "sortpattern", What: what, Text: text, Arg: i, DB: -1, Why: why}
	}
	if !t.SortPatternsBySlot() {
		text := RefusedSortBy
		if option == "GET" {
			text = RefusedSortGet
		}
		return refusal(text, fmt.Sprintf("reads keys by a pattern, which %s refuses in cluster mode whatever the pattern", t.Name())), false
	}
	text := RefusedSortBySlot
	if option == "GET" {
		text = RefusedSortGetSlot
	}
	switch {
	case !p.Known && p.Star && p.BraceFree:
		// no tag unless a value holds a brace: the '*' is hashed, any slot
		r := refusal(text, "reads keys on any slot, which a cluster refuses")
		r.IfTagless = !p.ValuesBraceFree
		return r, false
	case !p.Known:
		return nil, true
	case option == "GET" && p.Text == "#" && t.SortGetSelf():
		return nil, false
	}
	ps, ok := slotcalc.PatternSlot(p.Text)
	if !ok {
		return refusal(text, "reads keys on any slot, which a cluster refuses"), false
	}
	if len(argv) < 2 || !argv[1].Known {
		return nil, true
	}
	ks := slotcalc.Slot(argv[1].Text)
	switch {
	case ps == ks:
		return nil, false
	case option == "GET" && p.Text == "#":
		return refusal(text, fmt.Sprintf("is read as a key name by %s, on slot %d, not the sorted key %q's slot %d, which a cluster refuses", t.Name(), ps, argv[1].Text, ks)), false
	}
	return refusal(text, fmt.Sprintf("reads keys on slot %d, not the sorted key %q's slot %d, which a cluster refuses", ps, argv[1].Text, ks)), false
}

func appendRefusal(rs []Refusal, r *Refusal) []Refusal {
	if r == nil {
		return rs
	}
	return append(rs, *r)
}

// OnOneNode reports the keyspace-wide commands a cluster client sends to one
// node, which then sees or clears that node's keys only.
func OnOneNode(name string) bool {
	switch strings.ToUpper(name) {
	case "KEYS", "SCAN", "RANDOMKEY", "FLUSHDB", "FLUSHALL":
		return true
	}
	return false
}

// LoadsOnOneNode reads SCRIPT LOAD and FUNCTION LOAD: a cluster client
// sends them to one node (go-redis's Do and FunctionLoad, with or without
// its command-info resolver; rueidis; redisc: checked on three masters),
// and an EVALSHA of the script, or an FCALL of the library's functions,
// then fails on the other nodes (NOSCRIPT, ERR Function not found). what
// names the command.
func LoadsOnOneNode(argv []Arg) (what string, ok bool) {
	if len(argv) < 2 || !argv[0].Known || !argv[1].Known || !strings.EqualFold(argv[1].Text, "LOAD") {
		return "", false
	}
	switch name := strings.ToUpper(argv[0].Text); name {
	case "SCRIPT", "FUNCTION":
		return name + " LOAD", true
	}
	return "", false
}

// KeyspaceEvents reads a command line for keyspace notifications, which
// each node publishes for its own keys only: a SUBSCRIBE or PSUBSCRIBE to
// a __keyspace@ or __keyevent@ channel (what names the first), or CONFIG
// SET notify-keyspace-events, which a node applies to itself. site says
// the command is one of those commands, whatever its arguments; undecided
// that an argument that decides is not known.
func KeyspaceEvents(argv []Arg) (what string, undecided, site bool) {
	if len(argv) == 0 || !argv[0].Known {
		return "", false, false
	}
	name := strings.ToUpper(argv[0].Text)
	switch name {
	case "SUBSCRIBE", "PSUBSCRIBE":
		for _, a := range argv[1:] {
			switch {
			case !a.Known:
				undecided = true
			case keyspaceChannel(a.Text):
				return name + " " + strconv.Quote(a.Text), false, true
			}
		}
		return "", undecided, true
	case "CONFIG":
		if len(argv) < 2 || !argv[1].Known || !strings.EqualFold(argv[1].Text, "SET") {
			return "", false, false
		}
		for i := 2; i < len(argv); i += 2 {
			switch {
			case !argv[i].Known:
				undecided = true
			case strings.EqualFold(argv[i].Text, "notify-keyspace-events"):
				return "CONFIG SET notify-keyspace-events", false, true
			}
		}
		return "", undecided, true
	}
	return "", false, false
}

// keyspaceChannel: a channel (or pattern) of keyspace notifications.
func keyspaceChannel(ch string) bool {
	return strings.HasPrefix(ch, "__keyspace@") || strings.HasPrefix(ch, "__keyevent@") || strings.HasPrefix(ch, "__key*")
}

// dbNumber is a database argument's number, -1 when it is not one.
func dbNumber(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// UnknownDatabase finds the argument of a SELECT or a COPY ... DB whose
// database the code does not fix: its index in argv, the command's words
// for messages, and the cluster's refusal when it is not 0. ok is false
// for any other line.
func UnknownDatabase(argv []Arg) (i int, what, refusal string, ok bool) {
	if len(argv) < 2 || !argv[0].Known {
		return 0, "", "", false
	}
	switch strings.ToUpper(argv[0].Text) {
	case "SELECT":
		if !argv[1].Known {
			return 1, "SELECT", RefusedSelect, true
		}
	case "COPY":
		for i := 3; i+1 < len(argv); i++ {
			if argv[i].Known && strings.EqualFold(argv[i].Text, "DB") && !argv[i+1].Known {
				return i + 1, "COPY ... DB", RefusedCopyDB, true
			}
		}
	}
	return 0, "", "", false
}
