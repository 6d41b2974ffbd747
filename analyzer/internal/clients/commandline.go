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
		argv[i].Text, argv[i].Known = constText(ssaread.UnwrapInterface(el.Value))
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

// constText is a string or integer constant as the command line holds it.
func constText(v ssa.Value) (string, bool) {
	if s, ok := ssaread.ConstString(v); ok {
		return s, true
	}
	if n, ok := ssaread.ConstInt(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	return "", false
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
