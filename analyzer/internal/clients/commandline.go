package clients

import (
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/internal/commands"
)

// rawCommand reads Do(ctx, "NAME", args...) whose name is a constant, with
// the command table from the server's key specs (internal/commands). Keys
// are found as the server finds them; an argument the code does not fix is
// a key only if the table places one there, and a keyword or count that is
// not fixed leaves the keys unknown.
func rawCommand(c *Site) []keymodel.Arg {
	elems, ok := c.ElementsOfParam("args")
	if !ok || len(elems) == 0 {
		return nil
	}
	return commandKeys(c, elems)
}

// commandKeys reads the keys of a command line given as values, the
// command's name first (go-redis Do, redigo Do and Send).
func commandKeys(c *Site, elems []eval.Element) []keymodel.Arg {
	name, ok := ssaread.ConstString(ssaread.UnwrapInterface(elems[0].Value))
	if !ok {
		return nil
	}
	if ShardedPubSub[strings.ToUpper(name)] {
		return channelArgs(c, elems[1:]) // SSUBSCRIBE channel [channel ...]
	}
	cmd, ok := commands.Lookup(name)
	if !ok {
		return nil
	}
	argv := make([]commands.Arg, len(elems))
	for i, el := range elems {
		argv[i].Text, argv[i].Known = ssaread.ConstText(ssaread.UnwrapInterface(el.Value))
	}
	pos, ok := cmd.Keys(argv)
	if !ok {
		return nil
	}
	var out []keymodel.Arg
	for _, i := range pos {
		v := ssaread.UnwrapInterface(elems[i].Value)
		if v == nil || !ssaread.IsString(v.Type()) {
			continue // a key the analyzer cannot read (bytes, a number)
		}
		out = append(out, c.KeyArg(v, elems[i].At))
	}
	return out
}

// LineKeys reads a command line given as values, its name first (a
// redis.Args{"SET", key, v} a helper sends), placed at at: its name, upper
// case, and its keys as the command table places them; ok is false when
// the name is not a constant of the table.
func (c *Site) LineKeys(values []ssa.Value, at keymodel.Range) (name string, keys []keymodel.Arg, ok bool) {
	if len(values) == 0 {
		return "", nil, false
	}
	name, ok = ssaread.ConstString(ssaread.UnwrapInterface(values[0]))
	if _, known := commands.Lookup(name); !ok || !known {
		return "", nil, false
	}
	elems := make([]eval.Element, len(values))
	for i, v := range values {
		elems[i] = eval.Element{Value: v, At: at}
	}
	return strings.ToUpper(name), commandKeys(c, elems), true
}

// channelArgs reads sharded channels, which hash like keys.
func channelArgs(c *Site, elems []eval.Element) []keymodel.Arg {
	var out []keymodel.Arg
	for _, el := range elems {
		v := ssaread.UnwrapInterface(el.Value)
		if v == nil || !ssaread.IsString(v.Type()) {
			return nil
		}
		out = append(out, c.KeyArg(v, el.At))
	}
	return out
}

// familyLine reads a command line whose arguments after the name (at
// argument j) are a slice a loop fills with one key per element (see
// eval.Family), for a command all of whose arguments are keys: MGET, DEL,
// SUNION, ... Nil for anything else.
func familyLine(c *Site, j int) []keymodel.Arg {
	if j+1 >= len(c.Common.Args) {
		return nil
	}
	name, ok := ssaread.ConstString(ssaread.UnwrapInterface(c.Common.Args[j]))
	if !ok || !allKeys(name) {
		return nil
	}
	init, each, of, ok := c.Eval.Family(c.Common.Args[j+1])
	if !ok {
		return nil
	}
	return append(c.KeyArgs(init), keymodel.Arg{Alts: each, Family: of, At: c.ArgPos(j + 1)})
}

// allKeys: every argument of the command is a key, however many.
func allKeys(name string) bool {
	cmd, ok := commands.Lookup(name)
	if !ok {
		return false
	}
	for n := 1; n <= 3; n++ {
		argv := []commands.Arg{{Text: name, Known: true}}
		for range n {
			argv = append(argv, commands.Arg{})
		}
		pos, ok := cmd.Keys(argv)
		if !ok || len(pos) != n {
			return false
		}
	}
	return true
}

// oneNodeCommands run on one node of a cluster client, by go-redis method.
var oneNodeCommands = map[string]string{
	"Keys": "KEYS", "Scan": "SCAN", "ScanType": "SCAN", "RandomKey": "RANDOMKEY",
	"FlushDB": "FLUSHDB", "FlushDBAsync": "FLUSHDB", "FlushAll": "FLUSHALL", "FlushAllAsync": "FLUSHALL",
}

// A Line is a call's command line as the readiness checks read it: its
// upper-case name, the arguments the code fixes, where each is written
// (nil: at the call) and the value each is read from (nil for a word the
// client writes, SORT's BY), which a caller's arguments may fix (see
// reading's forwards).
type Line struct {
	Name   string
	Argv   []commands.Arg
	At     []keymodel.Range
	Values []ssa.Value
}

// add appends an argument, its value and where it is written.
func (l *Line) add(a commands.Arg, v ssa.Value, at keymodel.Range) {
	l.Argv = append(l.Argv, a)
	l.Values = append(l.Values, v)
	if at != (keymodel.Range{}) || l.At != nil {
		for len(l.At) < len(l.Argv)-1 {
			l.At = append(l.At, keymodel.Range{})
		}
		l.At = append(l.At, at)
	}
}

// word appends a word the client writes: the name, a keyword.
func (l *Line) word(w string) { l.add(commands.Arg{Text: w, Known: true}, nil, keymodel.Range{}) }

// text appends an argument read from a value, known when the code fixes it.
func (l *Line) text(v ssa.Value, at keymodel.Range) {
	var a commands.Arg
	if v != nil {
		a.Text, a.Known = ssaread.ConstText(ssaread.UnwrapInterface(v))
	}
	l.add(a, v, at)
}

// CommandLine is a call's command line as the readiness checks read it
// (see ReadLine).
func CommandLine(c *Site) (name string, argv []commands.Arg, at []keymodel.Range, ok bool) {
	l, ok := ReadLine(c)
	return l.Name, l.Argv, l.At, ok
}

// ReadLine is a call's command line as the readiness checks read it: a
// go-redis method's (where each parameter is written), a command line's
// (go-redis Do, redigo Do and Send, the builder's Arbitrary), a rueidis or
// valkey-go built command's, a GLIDE method's.
func ReadLine(c *Site) (Line, bool) {
	var l Line
	var elems []eval.Element
	ok := false
	switch {
	case c.line != nil:
		elems, ok = c.line()
	case c.built != nil:
		l = c.builtLine(*c.built)
		l.Name = l.Argv[0].Text
		return l, true
	case c.Library == Glide:
		return glideLine(c)
	case c.Library != GoRedis:
		return Line{}, false
	case c.Method == "Do":
		elems, ok = c.ElementsOfParam("args")
	default:
		return goRedisLine(c)
	}
	if !ok || len(elems) == 0 {
		return Line{}, false
	}
	for _, el := range elems {
		l.text(el.Value, keymodel.Range{})
	}
	if !l.Argv[0].Known {
		return Line{}, false
	}
	l.Argv[0].Text = strings.ToUpper(l.Argv[0].Text)
	l.Name = l.Argv[0].Text
	return l, true
}

// goRedisLine writes a go-redis method's call as the command line it sends,
// as far as the readiness checks need it: Select(ctx, 2) is SELECT 2,
// Copy(ctx, a, b, 3, true) is COPY a b DB 3, Sort(ctx, k, &redis.Sort{By:
// "w_*"}) is SORT k BY w_*.
func goRedisLine(c *Site) (Line, bool) {
	var l Line
	param := func(p string) {
		j, v, ok := c.Param(p)
		if !ok {
			l.add(commands.Arg{}, nil, keymodel.Range{})
			return
		}
		var a commands.Arg
		if n, ok := ssaread.ConstInt(v); ok {
			a = commands.Arg{Text: strconv.FormatInt(n, 10), Known: true}
		}
		l.add(a, v, c.ArgPos(j))
	}
	if n, ok := oneNodeCommands[c.Method]; ok {
		l.word(n)
		l.Name = n
		return l, true
	}
	switch c.Method {
	case "Subscribe", "PSubscribe":
		l.word(strings.ToUpper(c.Method))
		elems, ok := c.ElementsOfParam("channels")
		if !ok {
			l.add(commands.Arg{}, nil, keymodel.Range{}) // channels the code does not fix
			break
		}
		for _, el := range elems {
			text, known := ssaread.ConstString(ssaread.UnwrapInterface(el.Value))
			l.add(commands.Arg{Text: text, Known: known}, el.Value, el.At)
		}
	case "ConfigSet":
		l.word("CONFIG")
		l.word("SET")
		_, v, ok := c.Param("parameter")
		text, known := "", false
		if ok {
			text, known = ssaread.ConstString(v)
		}
		l.add(commands.Arg{Text: text, Known: known}, v, keymodel.Range{})
	case "FunctionLoad", "FunctionLoadReplace":
		// go-redis sends it to one node, resolver or not (ScriptLoad, which
		// ClusterClient sends to every master, is not read).
		l.word("FUNCTION")
		l.word("LOAD")
	case "Select":
		l.word("SELECT")
		param("index")
	case "Move":
		l.word("MOVE")
		l.add(commands.Arg{}, nil, keymodel.Range{}) // the key
		param("db")
	case "Copy":
		l.word("COPY")
		l.add(commands.Arg{}, nil, keymodel.Range{}) // the keys
		l.add(commands.Arg{}, nil, keymodel.Range{})
		l.word("DB")
		param("db")
	case "Sort", "SortRO", "SortStore", "SortInterfaces":
		name := "SORT"
		if c.Method == "SortRO" {
			name = "SORT_RO"
		}
		l.word(name)
		// the key: a pattern on its slot is accepted (Redis 7.4, Valkey 8.0)
		_, key, _ := c.Param("key")
		k := c.patternArg(key)
		k.Star = false
		l.add(k, key, keymodel.Range{})
		by, ok := c.FieldOfParam("sort", "By")
		if !ok {
			l.add(commands.Arg{}, nil, keymodel.Range{}) // a Sort the call does not build
			break
		}
		if p := c.patternArg(by.Value); !p.Known || p.Text != "" {
			l.add(commands.Arg{Text: "BY", Known: true}, nil, by.At)
			l.add(p, by.Value, by.At)
		}
		if get, ok := c.FieldOfParam("sort", "Get"); ok {
			elems, _ := ssaread.SliceElements(get.Value) // a slice the code does not fix may be empty: left out
			for _, el := range elems {
				el = ssaread.UnwrapInterface(el)
				l.add(commands.Arg{Text: "GET", Known: true}, nil, get.At)
				l.add(c.patternArg(el), el, get.At)
			}
		}
	default:
		return Line{}, false
	}
	l.Name = l.Argv[0].Text
	return l, true
}

// patternArg is a SORT pattern as the command line holds it: its text,
// when the code fixes it (a constant, or a key built of known text only),
// else whether it holds '*' whatever its values (every alternative's
// known text does).
func (c *Site) patternArg(v ssa.Value) commands.Arg {
	if text, known := ssaread.ConstString(v); known {
		return commands.Arg{Text: text, Known: true}
	}
	if c.Eval == nil {
		return commands.Arg{}
	}
	return PatternOf(c.Eval.Keys(v))
}

// PatternOf is a pattern as the command line holds it, from its
// alternatives (see patternArg).
func PatternOf(alts []keymodel.Key) commands.Arg {
	if len(alts) == 1 {
		if text, known := alts[0].Known(); known {
			return commands.Arg{Text: text, Known: true}
		}
	}
	braceFree, valuesBraceFree := true, true
	for _, k := range alts {
		star := false
		for _, p := range k {
			star = star || !p.Unknown && strings.Contains(p.Text, "*")
			braceFree = braceFree && (p.Unknown || !strings.ContainsAny(p.Text, "{}"))
			valuesBraceFree = valuesBraceFree && (!p.Unknown || p.NoBrace)
		}
		if !star {
			return commands.Arg{}
		}
	}
	return commands.Arg{Star: len(alts) > 0, BraceFree: len(alts) > 0 && braceFree, ValuesBraceFree: valuesBraceFree}
}

// builderKeywords are the builder methods that write a keyword before
// their arguments: Db(3) is DB 3.
var builderKeywords = map[string]string{"Db": "DB", "By": "BY", "Get": "GET", "Limit": "LIMIT", "Store": "STORE"}

// builtLine writes a rueidis or valkey-go built command as its command
// line: c.B().Sort().Key(k).By("w_*") is SORT k BY w_*. An argument the code
// does not fix, or a list, is one unknown argument; a pattern is read as
// patternArg reads it.
func (c *Site) builtLine(b builtCommand) Line {
	var l Line
	name := b.name
	switch name {
	case "SORTRO":
		name = "SORT_RO"
	case "SCRIPTLOAD", "FUNCTIONLOAD": // two words: SCRIPT LOAD
		l.word(strings.TrimSuffix(name, "LOAD"))
		name = "LOAD"
	}
	l.word(name)
	for _, call := range b.calls {
		fn := call.Call.StaticCallee()
		if fn == nil || len(call.Call.Args) < 2 {
			continue
		}
		if kw, ok := builderKeywords[fn.Name()]; ok {
			l.word(kw)
			if (kw == "BY" || kw == "GET") && len(call.Call.Args) == 2 {
				l.add(c.patternArg(call.Call.Args[1]), call.Call.Args[1], keymodel.Range{})
				continue
			}
		}
		for _, v := range call.Call.Args[1:] {
			if elems, ok := ssaread.SliceElements(v); ok {
				for _, el := range elems { // a variadic method's values, Pattern(p...)
					l.text(el, keymodel.Range{})
				}
				continue
			}
			if fn.Name() == "Key" && len(call.Call.Args) == 2 {
				k := c.patternArg(v) // SORT's key, read as its patterns are
				k.Star = false
				l.add(k, v, keymodel.Range{})
				continue
			}
			l.text(v, keymodel.Range{})
		}
	}
	return l
}
