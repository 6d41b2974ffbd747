package clients

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/internal/commands"
)

// rueidis (github.com/redis/rueidis) and valkey-go (github.com/valkey-io/
// valkey-go, the Valkey project's client) share a generated command builder:
//
//	c.B().Mget().Key(a, b).Build()
//	c.B().Rename().Key(a).Newkey(b).Build()
//	c.B().Arbitrary("MGET").Keys(a, b).Build()
//
// On a cluster client the builder checks every key it is given and panics
// with "multi key command with different key slots are not allowed". A
// Build() is followed back along its chain to the Builder: the first method
// names the command (Arbitrary's first token), and the key-marking methods
// on the way (those whose parameters the generator marks as keys) give the
// keys. Lua scripts take their keys in Exec; DoMulti with MULTI ... EXEC is
// a transaction, which the cluster client refuses, panicking, when its keys
// span slots. The splitting helpers (rueidis.MGet, MDel, MSet, ...) split by
// slot and are never reported.

// builderModules are the clients built on the generated command builder.
var builderModules = map[string]bool{"github.com/redis/rueidis": true, "github.com/valkey-io/valkey-go": true}

// builderKeyMethods are the builder methods whose first parameter is a key
// (a string, or ...string): those whose generated code computes the slot of
// what they are given, as the generator marks key parameters. Channel, which
// also computes a slot (a sharded channel's), is left out: channels are not
// keys.
var builderKeyMethods = map[string]bool{
	"Key": true, "Keys": true, "Destination": true, "Newkey": true, "Source": true, "Store": true,
	"Storedist": true, "Destkey": true, "Sourcekey": true, "SourceKey": true, "DestinationKey": true,
	"Dst": true, "Src": true, "Key1": true, "Key2": true, "KeyValue": true, "KeyTimestampValue": true, "Graph": true,
}

// builderPanic says what a cluster client does with a command whose keys
// span slots.
const builderPanic = "; the cluster client's builder panics on it (multi key command with different key slots are not allowed)"

func isBuilderPackage(p *types.Package) bool {
	if p == nil {
		return false
	}
	mod, ok := strings.CutSuffix(p.Path(), "/internal/cmds")
	return ok && builderModules[mod]
}

// builderCall recognizes a Build() of the generated builder, a Cache() of
// one for client-side caching (DoCache), and a Lua script's Exec.
func builderCall(call ssa.CallInstruction, ev *eval.Evaluator) *Site {
	common := call.Common()
	fn := common.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	if pkg == nil || fn.Signature.Recv() == nil {
		return nil
	}
	site := NewSite(ev, common, fn.Signature)
	site.Library, site.Fate = Rueidis, builderPanic
	switch {
	case (fn.Name() == "Build" || fn.Name() == "Cache") && isBuilderPackage(pkg): // Cache: a read for DoCache
		v, ok := call.(*ssa.Call)
		if !ok {
			return nil
		}
		built, ok := builderChain(v)
		if !ok {
			return nil
		}
		site.Method, site.Builder, site.built = built.name, built.builder, &built
		if built.arbitrary != nil {
			site.line = func() ([]eval.Element, bool) { return arbitraryLine(site, built) }
		}
		site.Rule = func(c *Site) []keymodel.Arg { return builtKeys(c, built) }
		if ShardedPubSub[built.name] {
			site.Rule = func(c *Site) []keymodel.Arg { return builderKeys(c.Eval, built.channelCalls, built.looped) }
		}
		if built.arbitrary != nil && len(built.keyCalls) == 0 {
			site.Fate = "" // no key marked: the builder checks nothing, the server refuses it
		}
		return site
	case fn.Name() == "Exec" && builderModules[pkg.Path()] && ssaread.IsNamed(fn.Signature.Recv().Type(), pkg.Path(), "Lua"):
		site.Method, site.Rule = "Lua.Exec", params("keys")
		return site
	}
	return nil
}

// A builtCommand is a Build() followed back to the Builder.
type builtCommand struct {
	name     string
	calls    []*ssa.Call // every call after the Builder's, in order
	builder  ssa.Value   // the Builder the chain starts from
	keyCalls []*ssa.Call // the key-marking calls, in order
	// channelCalls are the Channel calls: a sharded channel's slot is
	// checked like a key's.
	channelCalls []*ssa.Call
	// For Arbitrary(tokens...): that call, and the Keys and Args calls
	// after it, in order, which make up the command line.
	arbitrary *ssa.Call
	parts     []*ssa.Call
	// looped are the calls a loop makes on the command, each iteration
	// one more (cmd = cmd.KeyValue(k, v)), with the loop's header φ.
	looped map[*ssa.Call]*ssa.Phi
}

// builderChain follows a built command back to the Builder: the command's
// name and the calls on the way.
func builderChain(v ssa.Value) (builtCommand, bool) {
	var b builtCommand
	var loop *ssa.Phi // the loop whose calls are being read
	for range 64 {
		if phi, ok := v.(*ssa.Phi); ok && loop == nil && b.looped == nil {
			// A command a loop extends: the calls around the loop back to
			// its header, then the chain before the loop.
			entry, ok := loopEntry(phi)
			if !ok {
				return b, false
			}
			loop, v = phi, phi.Edges[1-entry]
			b.looped = map[*ssa.Call]*ssa.Phi{}
			continue
		}
		if loop != nil && v == ssa.Value(loop) {
			entry, _ := loopEntry(loop)
			loop, v = nil, loop.Edges[entry]
			continue
		}
		call, ok := v.(*ssa.Call)
		if !ok {
			return b, false
		}
		if loop != nil {
			b.looped[call] = loop
		}
		fn := call.Call.StaticCallee()
		pkg := ssaread.FuncPackage(fn)
		if !isBuilderPackage(pkg) || fn.Signature.Recv() == nil || len(call.Call.Args) == 0 {
			return b, false
		}
		if ssaread.IsNamed(fn.Signature.Recv().Type(), pkg.Path(), "Builder") {
			b.builder = call.Call.Args[0]
			if fn.Name() != "Arbitrary" {
				b.name = strings.ToUpper(fn.Name())
				return b, true
			}
			tokens, ok := ssaread.SliceElements(call.Call.Args[1])
			if !ok || len(tokens) == 0 {
				return b, false
			}
			first, ok := ssaread.ConstString(tokens[0])
			b.name, b.arbitrary = strings.ToUpper(first), call
			return b, ok
		}
		b.calls = append([]*ssa.Call{call}, b.calls...)
		if fn.Name() == "Channel" {
			b.channelCalls = append([]*ssa.Call{call}, b.channelCalls...)
		}
		if builderKeyMethods[fn.Name()] {
			b.keyCalls = append([]*ssa.Call{call}, b.keyCalls...)
		}
		if fn.Name() == "Keys" || fn.Name() == "Args" {
			b.parts = append([]*ssa.Call{call}, b.parts...)
		}
		v = call.Call.Args[0] // the value receiver: the chain so far
	}
	return b, false
}

// loopEntry is the edge of a loop header's φ of two edges that comes from
// before the loop.
func loopEntry(phi *ssa.Phi) (int, bool) {
	b := phi.Block()
	if len(phi.Edges) != 2 || len(b.Preds) != 2 {
		return 0, false
	}
	for i, pred := range b.Preds {
		if !b.Dominates(pred) && b.Dominates(b.Preds[1-i]) {
			return i, true
		}
	}
	return 0, false
}

// builtKeys reads a built command's keys: those its key-marking calls were
// given; for an Arbitrary command the server's table knows, the keys of its
// command line (tokens, then Keys and Args in order), as the server finds
// them.
func builtKeys(c *Site, b builtCommand) []keymodel.Arg {
	if b.arbitrary != nil {
		if _, known := commands.Lookup(b.name); known {
			if line, ok := arbitraryLine(c, b); ok {
				return commandKeys(c, line)
			}
		}
	}
	return builderKeys(c.Eval, b.keyCalls, b.looped)
}

// arbitraryLine is an Arbitrary command's line: its tokens, then what its
// Keys and Args calls add, in order.
func arbitraryLine(c *Site, b builtCommand) ([]eval.Element, bool) {
	var line []eval.Element
	for _, part := range append([]*ssa.Call{b.arbitrary}, b.parts...) {
		site := SiteOf(c.Eval, &part.Call)
		elems, ok := site.ElementsOfArg(len(part.Call.Args) - 1)
		if !ok {
			return nil, false
		}
		line = append(line, elems...)
	}
	return line, true
}

// builderKeys reads the keys the chain's key-marking calls were given:
// their first parameter, one key or a variadic list. A call a loop makes
// gives a key per iteration: a family over what the loop ranges over,
// when the key differs from one iteration to the next.
func builderKeys(ev *eval.Evaluator, keyCalls []*ssa.Call, looped map[*ssa.Call]*ssa.Phi) []keymodel.Arg {
	var out []keymodel.Arg
	for _, kc := range keyCalls {
		fn := kc.Call.StaticCallee()
		site := NewSite(ev, &kc.Call, fn.Signature)
		j := site.RecvArgs()
		if j >= len(kc.Call.Args) {
			continue
		}
		if phi := looped[kc]; phi != nil {
			values := []ssa.Value{kc.Call.Args[j]}
			if !ssaread.IsString(values[0].Type()) {
				// Key(k) of a variadic Key(keys ...string): the list the
				// call writes out, else not read
				elems, ok := ssaread.SliceElements(values[0])
				if !ok {
					continue
				}
				values = elems
			}
			for _, v := range values {
				k := site.KeyArg(v, site.ArgPos(j))
				if k.HasElement() {
					k.Family = ev.IterationsOf(phi.Block())
				}
				out = append(out, k)
			}
			continue
		}
		if v := kc.Call.Args[j]; ssaread.IsString(v.Type()) {
			out = append(out, site.KeyArg(v, site.ArgPos(j)))
			continue
		}
		out = append(out, site.keysOfSlice(j)...)
	}
	return out
}

// DoMultiTransaction reads a DoMulti whose commands are MULTI ... EXEC: the
// commands in between. (A plain DoMulti is split by slot.)
func DoMultiTransaction(call ssa.CallInstruction, ev *eval.Evaluator) ([]keymodel.QueuedCommand, bool) {
	common := call.Common()
	m := ssaread.CalledFunc(common)
	if m == nil || m.Name() != "DoMulti" || m.Pkg() == nil || !builderModules[m.Pkg().Path()] {
		return nil, false
	}
	site := NewSite(ev, common, m.Signature())
	elems, ok := site.ElementsOfArg(len(common.Args) - 1)
	if !ok {
		return loopedDoMulti(site)
	}
	if len(elems) < 3 {
		return nil, false
	}
	cmds, ok := builtCommands(site, elems)
	if !ok || cmds[0].Method != "MULTI" || cmds[len(cmds)-1].Method != "EXEC" {
		return nil, false
	}
	return cmds[1 : len(cmds)-1], true
}

// builtCommands reads each of a DoMulti's commands, every one a built
// command; ok is false otherwise.
func builtCommands(site *Site, elems []eval.Element) ([]keymodel.QueuedCommand, bool) {
	var cmds []keymodel.QueuedCommand
	for _, el := range elems {
		call, ok := el.Value.(*ssa.Call)
		if !ok {
			return nil, false
		}
		built, ok := builderChain(call)
		if !ok {
			return nil, false
		}
		cmds = append(cmds, keymodel.QueuedCommand{Method: built.name, Keys: builtKeys(site, built)})
	}
	return cmds, len(cmds) > 0
}

// loopedDoMulti reads a DoMulti of commands a loop builds between a MULTI
// and an EXEC appended around it:
//
//	cmds := valkey.Commands{c.B().Multi().Build()}
//	for r, n := range delivery {
//		cmds = append(cmds, c.B().Incrby().Key(stock(r)).Increment(n).Build())
//	}
//	cmds = append(cmds, c.B().Exec().Build())
//	c.DoMulti(ctx, cmds...)
//
// The loop's command is one queued command whose keys hold the loop's
// element: two iterations' keys are compared as two elements.
func loopedDoMulti(site *Site) ([]keymodel.QueuedCommand, bool) {
	var looped *keymodel.QueuedCommand
	init, _, ok := site.Eval.EachAdded(site.Common.Args[len(site.Common.Args)-1], func(added ssa.Value) {
		if call, isCall := added.(*ssa.Call); isCall {
			if built, ok := builderChain(call); ok {
				looped = &keymodel.QueuedCommand{Method: built.name, Keys: builtKeys(site, built)}
			}
		}
	})
	if !ok || looped == nil || len(init) < 2 {
		return nil, false
	}
	cmds, ok := builtCommands(site, init)
	if !ok || cmds[0].Method != "MULTI" || cmds[len(cmds)-1].Method != "EXEC" {
		return nil, false
	}
	return append(cmds[1:len(cmds)-1:len(cmds)-1], *looped), true
}

// ModeCheck reads a comparison of a rueidis or valkey-go client's Mode()
// with one of its modes, c.Mode() == rueidis.ClientModeCluster: the client,
// the mode's text ("cluster", "standalone", "sentinel") and whether the
// comparison holds when the modes are equal (==) or when they differ (!=).
func ModeCheck(v ssa.Value) (client ssa.Value, mode string, equal, ok bool) {
	cmp, isBinOp := v.(*ssa.BinOp)
	if !isBinOp || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, "", false, false
	}
	call, k := cmp.X, cmp.Y
	if _, isConst := call.(*ssa.Const); isConst {
		call, k = k, call
	}
	c, isCall := call.(*ssa.Call)
	kc, isConst := k.(*ssa.Const)
	if !isCall || !isConst || kc.Value == nil || kc.Value.Kind() != constant.String {
		return nil, "", false, false
	}
	m := ssaread.CalledFunc(&c.Call)
	if m == nil || m.Name() != "Mode" || m.Pkg() == nil || !builderModules[m.Pkg().Path()] {
		return nil, "", false, false
	}
	return ssaread.ReceiverValue(&c.Call), constant.StringVal(kc.Value), cmp.Op == token.EQL, true
}
