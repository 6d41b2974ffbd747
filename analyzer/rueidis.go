package analyzer

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

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
// (a string, or ...string), as the builder's generator marks them (see
// shared/reference/clients.md §5). Channel, which marks a sharded channel's
// slot, is left out: channels are not keys.
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

// builderCall recognizes a Build() of the generated builder and a Lua
// script's Exec.
func builderCall(call ssa.CallInstruction, ev *evaluator) *callSite {
	common := call.Common()
	fn := common.StaticCallee()
	pkg := funcPackage(fn)
	if pkg == nil || fn.Signature.Recv() == nil {
		return nil
	}
	site := newCallSite(ev, common, fn.Signature)
	site.library, site.fate = builderClient, builderPanic
	switch {
	case fn.Name() == "Build" && isBuilderPackage(pkg):
		v, ok := call.(*ssa.Call)
		if !ok {
			return nil
		}
		built, ok := builderChain(v)
		if !ok {
			return nil
		}
		site.method, site.builder = built.name, built.builder
		site.rule = func(c *callSite) []keyArg { return builtKeys(c, built) }
		if built.arbitrary != nil && len(built.keyCalls) == 0 {
			site.fate = "" // no key marked: the builder checks nothing, the server refuses it
		}
		return site
	case fn.Name() == "Exec" && builderModules[pkg.Path()] && isNamed(fn.Signature.Recv().Type(), pkg.Path(), "Lua"):
		site.method, site.rule = "Lua.Exec", params("keys")
		return site
	}
	return nil
}

// A builtCommand is a Build() followed back to the Builder.
type builtCommand struct {
	name     string
	builder  ssa.Value   // the Builder the chain starts from
	keyCalls []*ssa.Call // the key-marking calls, in order
	// For Arbitrary(tokens...): that call, and the Keys and Args calls
	// after it, in order, which make up the command line.
	arbitrary *ssa.Call
	parts     []*ssa.Call
}

// builderChain follows a built command back to the Builder: the command's
// name and the calls on the way.
func builderChain(v ssa.Value) (builtCommand, bool) {
	var b builtCommand
	for range 64 {
		call, ok := v.(*ssa.Call)
		if !ok {
			return b, false
		}
		fn := call.Call.StaticCallee()
		pkg := funcPackage(fn)
		if !isBuilderPackage(pkg) || fn.Signature.Recv() == nil || len(call.Call.Args) == 0 {
			return b, false
		}
		if isNamed(fn.Signature.Recv().Type(), pkg.Path(), "Builder") {
			b.builder = call.Call.Args[0]
			if fn.Name() != "Arbitrary" {
				b.name = strings.ToUpper(fn.Name())
				return b, true
			}
			tokens, ok := sliceElements(call.Call.Args[1])
			if !ok || len(tokens) == 0 {
				return b, false
			}
			first, ok := constString(tokens[0])
			b.name, b.arbitrary = strings.ToUpper(first), call
			return b, ok
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

// builtKeys reads a built command's keys: those its key-marking calls were
// given; for an Arbitrary command the server's table knows, the keys of its
// command line (tokens, then Keys and Args in order), as the server finds
// them.
func builtKeys(c *callSite, b builtCommand) []keyArg {
	if b.arbitrary != nil {
		if _, known := commands.Lookup(b.name); known {
			var line []element
			for _, part := range append([]*ssa.Call{b.arbitrary}, b.parts...) {
				site := siteOf(c.eval, &part.Call)
				elems, ok := site.elementsOfArg(len(part.Call.Args) - 1)
				if !ok {
					return builderKeys(c.eval, b.keyCalls)
				}
				line = append(line, elems...)
			}
			return commandKeys(c, line)
		}
	}
	return builderKeys(c.eval, b.keyCalls)
}

// forcedSingle reports whether a Builder comes from a client the function
// makes with ClientOption{ForceSingleClient: true}: one node, whose builder
// checks no slots. (Whether a client of one address is a cluster is decided
// when it connects; such clients are checked.)
func forcedSingle(builder ssa.Value) bool {
	b, ok := builder.(*ssa.Call)
	if !ok || !b.Call.IsInvoke() || b.Call.Method.Name() != "B" {
		return false
	}
	ext, ok := clientRoot(b.Call.Value).(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return false
	}
	mk, ok := ext.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	fn := mk.Call.StaticCallee()
	pkg := funcPackage(fn)
	if pkg == nil || !builderModules[pkg.Path()] || fn.Name() != "NewClient" || len(mk.Call.Args) != 1 {
		return false
	}
	load, ok := mk.Call.Args[0].(*ssa.UnOp)
	if !ok {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != "ForceSingleClient" {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok {
				if c, ok := st.Val.(*ssa.Const); ok && c.Value != nil && c.Value.String() == "true" {
					return true
				}
			}
		}
	}
	return false
}

// funcPackage is the package that declares fn. (SSA leaves Pkg nil for the
// functions of packages imported only indirectly, as the builder's are.)
func funcPackage(fn *ssa.Function) *types.Package {
	if fn == nil {
		return nil
	}
	if obj := fn.Object(); obj != nil {
		return obj.Pkg()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg
	}
	return nil
}

// builderKeys reads the keys the chain's key-marking calls were given:
// their first parameter, one key or a variadic list.
func builderKeys(ev *evaluator, keyCalls []*ssa.Call) []keyArg {
	var out []keyArg
	for _, kc := range keyCalls {
		fn := kc.Call.StaticCallee()
		site := newCallSite(ev, &kc.Call, fn.Signature)
		j := site.recvArgs()
		if j >= len(kc.Call.Args) {
			continue
		}
		if v := kc.Call.Args[j]; isString(v.Type()) {
			out = append(out, keyArg{alts: ev.keys(v), at: site.argPos(j)})
			continue
		}
		elems, ok := site.elementsOfArg(j)
		if !ok {
			out = append(out, keyArg{unread: site.argText(j, kc.Call.Args[j]), at: site.argPos(j)})
			continue
		}
		out = append(out, site.keyArgs(elems)...)
	}
	return out
}

// doMultiTransaction reads a DoMulti whose commands are MULTI ... EXEC: the
// commands in between. (A plain DoMulti is split by slot.)
func doMultiTransaction(call ssa.CallInstruction, ev *evaluator) ([]txCommand, bool) {
	common := call.Common()
	m := calledFunc(common)
	if m == nil || m.Name() != "DoMulti" || m.Pkg() == nil || !builderModules[m.Pkg().Path()] {
		return nil, false
	}
	site := newCallSite(ev, common, m.Signature())
	elems, ok := site.elementsOfArg(len(common.Args) - 1)
	if !ok || len(elems) < 3 {
		return nil, false
	}
	var cmds []txCommand
	for _, el := range elems {
		v, ok := el.value.(*ssa.Call)
		if !ok {
			return nil, false
		}
		built, ok := builderChain(v)
		if !ok {
			return nil, false
		}
		cmds = append(cmds, txCommand{built.name, builtKeys(site, built)})
	}
	if cmds[0].method != "MULTI" || cmds[len(cmds)-1].method != "EXEC" {
		return nil, false
	}
	return cmds[1 : len(cmds)-1], true
}
