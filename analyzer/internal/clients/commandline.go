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

// CommandLine is a call's command line as the readiness checks read it
// (see readinessLine).
func CommandLine(c *Site) (name string, argv []commands.Arg, at []keymodel.Range, ok bool) {
	return readinessLine(c)
}

// readinessLine is a call's command line as the readiness checks read it:
// its upper-case name, the arguments the code fixes, and, for a go-redis
// method, where each parameter is written (nil otherwise: the call).
func readinessLine(c *Site) (name string, argv []commands.Arg, at []keymodel.Range, ok bool) {
	var elems []eval.Element
	switch {
	case c.line != nil:
		elems, ok = c.line()
	case c.built != nil:
		argv = c.builtLine(*c.built)
		return argv[0].Text, argv, nil, true
	case c.Library == Glide:
		name, argv, ok = glideLine(c)
		return name, argv, nil, ok
	case c.Library != GoRedis:
		return "", nil, nil, false
	case c.Method == "Do":
		elems, ok = c.ElementsOfParam("args")
	default:
		return goRedisLine(c)
	}
	if !ok || len(elems) == 0 {
		return "", nil, nil, false
	}
	argv = make([]commands.Arg, len(elems))
	for i, el := range elems {
		argv[i].Text, argv[i].Known = ssaread.ConstText(ssaread.UnwrapInterface(el.Value))
	}
	if !argv[0].Known {
		return "", nil, nil, false
	}
	argv[0].Text = strings.ToUpper(argv[0].Text)
	return argv[0].Text, argv, nil, true
}

// goRedisLine writes a go-redis method's call as the command line it sends,
// as far as the readiness checks need it: Select(ctx, 2) is SELECT 2,
// Copy(ctx, a, b, 3, true) is COPY a b DB 3, Sort(ctx, k, &redis.Sort{By:
// "w_*"}) is SORT k BY w_*.
func goRedisLine(c *Site) (name string, argv []commands.Arg, at []keymodel.Range, ok bool) {
	add := func(text string, known bool, pos keymodel.Range) {
		argv = append(argv, commands.Arg{Text: text, Known: known})
		at = append(at, pos)
	}
	param := func(p string) {
		n, pos, ok := c.intParam(p)
		add(strconv.FormatInt(n, 10), ok, pos)
	}
	if n, ok := oneNodeCommands[c.Method]; ok {
		return n, []commands.Arg{{Text: n, Known: true}}, nil, true
	}
	switch c.Method {
	case "Subscribe", "PSubscribe":
		add(strings.ToUpper(c.Method), true, keymodel.Range{})
		elems, ok := c.ElementsOfParam("channels")
		if !ok {
			add("", false, keymodel.Range{}) // channels the code does not fix
			break
		}
		for _, el := range elems {
			text, known := ssaread.ConstString(ssaread.UnwrapInterface(el.Value))
			add(text, known, el.At)
		}
	case "ConfigSet":
		add("CONFIG", true, keymodel.Range{})
		add("SET", true, keymodel.Range{})
		_, v, ok := c.Param("parameter")
		text, known := "", false
		if ok {
			text, known = ssaread.ConstString(v)
		}
		add(text, known, keymodel.Range{})
	case "FunctionLoad", "FunctionLoadReplace":
		// go-redis sends it to one node, resolver or not (ScriptLoad, which
		// ClusterClient sends to every master, is not read).
		add("FUNCTION", true, keymodel.Range{})
		add("LOAD", true, keymodel.Range{})
	case "Select":
		add("SELECT", true, keymodel.Range{})
		param("index")
	case "Move":
		add("MOVE", true, keymodel.Range{})
		add("", false, keymodel.Range{}) // the key
		param("db")
	case "Copy":
		add("COPY", true, keymodel.Range{})
		add("", false, keymodel.Range{}) // the keys
		add("", false, keymodel.Range{})
		add("DB", true, keymodel.Range{})
		param("db")
	case "Sort", "SortRO", "SortStore", "SortInterfaces":
		name := "SORT"
		if c.Method == "SortRO" {
			name = "SORT_RO"
		}
		add(name, true, keymodel.Range{})
		key, keyKnown := "", false // the key: a pattern on its slot is accepted (Redis 7.4, Valkey 8.0)
		if _, v, ok := c.Param("key"); ok {
			key, keyKnown = ssaread.ConstString(v)
		}
		add(key, keyKnown, keymodel.Range{})
		by, ok := c.FieldOfParam("sort", "By")
		if !ok {
			add("", false, keymodel.Range{}) // a Sort the call does not build
			break
		}
		if p := c.patternArg(by.Value); !p.Known || p.Text != "" {
			add("BY", true, by.At)
			argv, at = append(argv, p), append(at, by.At)
		}
		if get, ok := c.FieldOfParam("sort", "Get"); ok {
			elems, _ := ssaread.SliceElements(get.Value) // a slice the code does not fix may be empty: left out
			for _, el := range elems {
				add("GET", true, get.At)
				argv, at = append(argv, c.patternArg(ssaread.UnwrapInterface(el))), append(at, get.At)
			}
		}
	default:
		return "", nil, nil, false
	}
	return argv[0].Text, argv, at, true
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
	alts := c.Eval.Keys(v)
	if len(alts) == 1 {
		if text, known := alts[0].Known(); known {
			return commands.Arg{Text: text, Known: true}
		}
	}
	for _, k := range alts {
		star := false
		for _, p := range k {
			star = star || !p.Unknown && strings.Contains(p.Text, "*")
		}
		if !star {
			return commands.Arg{}
		}
	}
	return commands.Arg{Star: len(alts) > 0}
}

// builderKeywords are the builder methods that write a keyword before
// their arguments: Db(3) is DB 3.
var builderKeywords = map[string]string{"Db": "DB", "By": "BY", "Get": "GET", "Limit": "LIMIT", "Store": "STORE"}

// builtLine writes a rueidis or valkey-go built command as its command
// line: c.B().Sort().Key(k).By("w_*") is SORT k BY w_*. An argument the code
// does not fix, or a list, is one unknown argument; a pattern is read as
// patternArg reads it.
func (c *Site) builtLine(b builtCommand) []commands.Arg {
	name := b.name
	var argv []commands.Arg
	switch name {
	case "SORTRO":
		name = "SORT_RO"
	case "SCRIPTLOAD", "FUNCTIONLOAD": // two words: SCRIPT LOAD
		argv = append(argv, commands.Arg{Text: strings.TrimSuffix(name, "LOAD"), Known: true})
		name = "LOAD"
	}
	argv = append(argv, commands.Arg{Text: name, Known: true})
	for _, call := range b.calls {
		fn := call.Call.StaticCallee()
		if fn == nil || len(call.Call.Args) < 2 {
			continue
		}
		if kw, ok := builderKeywords[fn.Name()]; ok {
			argv = append(argv, commands.Arg{Text: kw, Known: true})
			if (kw == "BY" || kw == "GET") && len(call.Call.Args) == 2 {
				argv = append(argv, c.patternArg(call.Call.Args[1]))
				continue
			}
		}
		for _, v := range call.Call.Args[1:] {
			values := []ssa.Value{v}
			if elems, ok := ssaread.SliceElements(v); ok {
				values = elems // a variadic method's values, Pattern(p...)
			}
			for _, v := range values {
				var a commands.Arg
				a.Text, a.Known = ssaread.ConstText(ssaread.UnwrapInterface(v))
				argv = append(argv, a)
			}
		}
	}
	return argv
}

// intParam is an integer parameter's constant value and where it is.
func (c *Site) intParam(name string) (int64, keymodel.Range, bool) {
	j, v, ok := c.Param(name)
	if !ok {
		return 0, keymodel.Range{}, false
	}
	n, ok := ssaread.ConstInt(v)
	return n, c.ArgPos(j), ok
}
