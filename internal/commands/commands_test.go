package commands

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// lines are command lines whose keys the table must find as the server does:
// every multi-key command of Redis 7.0, and single-key ones around them.
var lines = []string{
	"MGET a b c", "MSET a 1 b 2", "MSETNX a 1 b 2", "DEL a b", "UNLINK a b", "EXISTS a b", "TOUCH a b",
	"RENAME a b", "RENAMENX a b", "COPY a b", "COPY a b DB 1 REPLACE", "SMOVE a b m", "RPOPLPUSH a b",
	"LMOVE a b LEFT RIGHT", "BLMOVE a b LEFT RIGHT 0", "BRPOPLPUSH a b 0", "BLPOP a b 0", "BRPOP a b c 1",
	"BZPOPMIN a b 0", "BZPOPMAX a b 0", "BLMPOP 0 2 a b LEFT", "LMPOP 2 a b LEFT COUNT 2", "ZMPOP 2 a b MIN",
	"BZMPOP 0 2 a b MAX", "SINTERCARD 2 a b LIMIT 1", "ZINTERCARD 2 a b", "SUNION a b", "SINTER a b", "SDIFF a b",
	"SUNIONSTORE d a b", "SINTERSTORE d a b", "SDIFFSTORE d a b", "ZUNIONSTORE d 2 a b WEIGHTS 1 2",
	"ZINTERSTORE d 2 a b AGGREGATE MAX", "ZDIFFSTORE d 2 a b", "ZUNION 2 a b", "ZINTER 2 a b WITHSCORES",
	"ZDIFF 2 a b", "ZRANGESTORE d s 0 1", "PFCOUNT a b", "PFMERGE d a b", "BITOP AND d a b", "BITOP NOT d a",
	"EVAL s 2 a b x", "EVALSHA 0123456789012345678901234567890123456789 2 a b", "EVAL_RO s 1 a", "FCALL f 2 a b x",
	"FCALL_RO f 0 x", "XREAD COUNT 1 STREAMS a b 0 0", "XREAD STREAMS a 0", "XREADGROUP GROUP g c STREAMS a b > >",
	"MIGRATE h 6379 \"\" 0 5000 KEYS a b", "MIGRATE h 6379 a 0 5000", "GEORADIUS k 0 0 1 km STORE d",
	"GEORADIUS k 0 0 1 km STORE d STOREDIST e", "GEORADIUSBYMEMBER k m 1 km STOREDIST d",
	"GEOSEARCHSTORE d s FROMLONLAT 0 0 BYRADIUS 1 km", "SORT k STORE d", "SORT k", "SORT k BY w:* LIMIT 0 5 GET o:* STORE d", "LCS a b", "WATCH a b",
	"SET a 1", "GET a", "HSET h f v", "OBJECT ENCODING a",
}

// argv splits a line, "" standing for the empty argument.
func argv(line string) []Arg {
	var out []Arg
	for _, f := range strings.Fields(line) {
		if f == `""` {
			f = ""
		}
		out = append(out, Arg{Text: f, Known: true})
	}
	return out
}

// TestKeysAsTheServerFindsThem compares Keys with COMMAND GETKEYS on the
// live server for every line.
func TestKeysAsTheServerFindsThem(t *testing.T) {
	c, err := redistest.Dial(redistest.Addr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	multi := 0
	for _, line := range lines {
		args := argv(line)
		name := args[0].Text
		if len(args) > 1 && (name == "OBJECT") {
			continue // a subcommand: not in the table
		}
		cmd, ok := Lookup(name)
		if !ok {
			t.Errorf("%s: not in the table", name)
			continue
		}
		pos, ok := cmd.Keys(args)
		if !ok {
			t.Errorf("%q: keys not found", line)
			continue
		}
		var got []string
		for _, p := range pos {
			got = append(got, args[p].Text)
		}
		req := []string{"COMMAND", "GETKEYS"}
		for _, a := range args {
			req = append(req, a.Text)
		}
		reply, err := c.Do(req...)
		if err != nil {
			t.Errorf("%q: server: %v", line, err)
			continue
		}
		var want []string
		for _, k := range reply.([]any) {
			want = append(want, k.(string))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: keys %q, the server says %q", line, got, want)
		}
		if len(want) > 1 {
			multi++
			if !cmd.MultiKey() {
				t.Errorf("%s takes %d keys but is not marked multi-key", name, len(want))
			}
		}
	}
	t.Logf("%d command lines agree with COMMAND GETKEYS, %d of them with several keys", len(lines), multi)
}

// TestTableMatchesServer regenerates the table from the live server and
// compares it with the committed one, so drift shows.
func TestTableMatchesServer(t *testing.T) {
	c, err := redistest.Dial(redistest.Addr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	reply, err := c.Do("COMMAND")
	if err != nil {
		t.Fatal(err)
	}
	live, err := FromCommandReply(reply)
	if err != nil {
		t.Fatal(err)
	}
	var diff []string
	for name, cmd := range live {
		if got, ok := Table()[name]; !ok || !reflect.DeepEqual(got, cmd) {
			diff = append(diff, fmt.Sprintf("%s: committed %+v, server %+v", name, got, cmd))
		}
	}
	for name := range Table() {
		if _, ok := live[name]; !ok {
			diff = append(diff, name+": committed, unknown to the server")
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("the committed table differs from the server's (go generate ./internal/commands):\n%s", strings.Join(diff, "\n"))
	}
	t.Logf("%d commands with keys, as the server says", len(live))
}

// TestKeysOffline pins a few lines without a server, and that unknown
// keywords and counts give no answer.
func TestKeysOffline(t *testing.T) {
	for line, want := range map[string]string{
		"MGET a b c":                              "[1 2 3]",
		"MSET a 1 b 2":                            "[1 3]",
		"BLPOP a b 0":                             "[1 2]",
		"ZUNIONSTORE d 2 a b WEIGHTS 1 2":         "[1 3 4]",
		"XREAD COUNT 1 STREAMS a b 0 0":           "[4 5]",
		"EVAL s 2 a b x":                          "[3 4]",
		"MIGRATE h 6379 \"\" 0 5000 KEYS a b":     "[7 8]",
		"SORT k BY w:* LIMIT 0 5 GET o:* STORE d": "[1 10]",
	} {
		cmd, _ := Lookup(strings.Fields(line)[0])
		pos, ok := cmd.Keys(argv(line))
		if got := fmt.Sprint(pos); !ok || got != want {
			t.Errorf("%q: %s %v, want %s", line, got, ok, want)
		}
	}
	eval, _ := Lookup("eval")
	if _, ok := eval.Keys([]Arg{{Text: "EVAL", Known: true}, {Text: "s", Known: true}, {Text: "", Known: false}, {Text: "a", Known: true}}); ok {
		t.Error("EVAL with an unknown numkeys: keys found")
	}
	xread, _ := Lookup("XREAD")
	if _, ok := xread.Keys([]Arg{{Text: "XREAD", Known: true}, {Text: "", Known: false}, {Text: "STREAMS", Known: true}, {Text: "a", Known: true}, {Text: "0", Known: true}}); ok {
		t.Error("XREAD with an unknown argument before STREAMS: keys found")
	}
}

// TestNewerCommands: the commands after Redis 7.0.15 find their keys as
// their key specs say (MSETEX's numkeys pairs), and the live server knows
// none of them: one it knows belongs in the generated table.
func TestNewerCommands(t *testing.T) {
	for line, want := range map[string]string{
		"MSETEX 2 a 1 b 2 EX 10":          "[2 4]",
		"MSETEX 1 a 1 NX":                 "[2]",
		"HGETDEL h FIELDS 1 f":            "[1]",
		"HSETEX h PX 10 FIELDS 1 f v":     "[1]",
		"XACKDEL s g KEEPREF IDS 1 0-1":   "[1]",
		"BITOP DIFF d a b":                "[2 3 4]", // Redis 8.2's operators parse as the old ones
		"BITOP ANDOR d a b c":             "[2 3 4 5]",
		"BITOP ONE d a":                   "[2 3]",
		"DELEX k IFEQ v":                  "[1]",
		"SUNIONCARD 2 a b APPROX LIMIT 5": "[2 3]",
		"SDIFFCARD 3 a b c LIMIT 0":       "[2 3 4]",
	} {
		cmd, ok := Lookup(strings.Fields(line)[0])
		if !ok {
			t.Errorf("%q: not known", line)
			continue
		}
		pos, ok := cmd.Keys(argv(line))
		if got := fmt.Sprint(pos); !ok || got != want {
			t.Errorf("%q: %s %v, want %s", line, got, ok, want)
		}
	}
	if m, _ := Lookup("msetex"); !m.MultiKey() {
		t.Error("MSETEX is not multi-key")
	}
	c, err := redistest.Dial(redistest.Addr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for name := range Newer() {
		if _, ok := Table()[name]; ok {
			t.Errorf("%s is in the generated table and in Newer", name)
		}
		reply, err := c.Do("COMMAND", "INFO", name)
		if list, ok := reply.([]any); err == nil && ok && len(list) == 1 && list[0] != nil {
			t.Errorf("%s: the live server knows it: it belongs in the generated table (go generate ./internal/commands)", name)
		}
	}
}
