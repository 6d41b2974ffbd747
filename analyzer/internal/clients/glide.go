package clients

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Valkey GLIDE for Go (github.com/valkey-io/valkey-glide/go/v2) turns each
// method into a command for its Rust core, which routes by the command's
// name (checked on a three-master Redis 7.0.15 cluster with v2.5.3):
//
//   - MGET, MSET, DEL, UNLINK, EXISTS, TOUCH and WATCH are split per slot,
//     and the replies merged: keys on different slots are no error, and a
//     split write is not atomic;
//   - every other command goes to the node of its first key, where the
//     server refuses keys of another slot (CrossSlot), MSETNX, PFCOUNT and
//     SORT ... STORE included, whatever GLIDE's docs say.
//
// *glide.ClusterClient and interfaces.GlideClusterClientCommands are
// cluster clients; *glide.Client and interfaces.GlideClientCommands talk to
// one server. The methods of both are baseClient's, called on the embedded
// field.

// glidePath is GLIDE's client package; its other packages are below it.
const glidePath = "github.com/valkey-io/valkey-glide/go/v2"

// glideMultiKey is where the keys of GLIDE's multi-key methods are, by the
// names of their parameters (as base_client.go names them).
var glideMultiKey = sync.OnceValue(func() map[string]KeyRule {
	return map[string]KeyRule{
		"MGet": params("keys"), "Exists": params("keys"), "Touch": params("keys"), "Watch": params("keys"),
		"Del": params("keys"), "Unlink": params("keys"), "MSet": mapKeys("keyValueMap"),

		"MSetNX": mapKeys("keyValueMap"), "Rename": params("key", "newKey"), "RenameNX": params("key", "newKey"),
		"Copy": params("source", "destination"), "CopyWithOptions": params("source", "destination"),
		"SMove": params("source", "destination"), "LMove": params("source", "destination"), "BLMove": params("source", "destination"),
		"SUnion": params("keys"), "SInter": params("keys"), "SDiff": params("keys"), "SInterCard": params("keys"), "SInterCardLimit": params("keys"),
		"SUnionStore": params("destination", "keys"), "SInterStore": params("destination", "keys"), "SDiffStore": params("destination", "keys"),
		"BLPop": params("keys"), "BRPop": params("keys"), "LMPop": params("keys"), "LMPopCount": params("keys"),
		"BLMPop": params("keys"), "BLMPopCount": params("keys"),
		"ZDiff": params("keys"), "ZDiffWithScores": params("keys"), "ZDiffStore": params("destination", "keys"),
		"ZInterCard": params("keys"), "ZInterCardWithOptions": params("keys"), "ZMPop": params("keys"), "ZMPopWithOptions": params("keys"),
		"BZMPop": params("keys"), "BZMPopWithOptions": params("keys"), "BZPopMin": params("keys"), "BZPopMax": params("keys"),
		"ZRangeStore": params("destination", "key"),
		"PfCount":     params("keys"), "PfMerge": params("destination", "sourceKeys"),
		"BitOp": params("destination", "keys"),
		"LCS":   params("key1", "key2"), "LCSLen": params("key1", "key2"), "LCSWithOptions": params("key1", "key2"),
		"XRead": mapKeys("keysAndIds"), "XReadWithOptions": mapKeys("keysAndIds"),
		"XReadGroup": mapKeys("keysAndIds"), "XReadGroupWithOptions": mapKeys("keysAndIds"),
		"SortStore": params("key", "destination"), "SortStoreWithOptions": params("key", "destination"),
		"GeoSearchStore": params("destinationKey", "sourceKey"), "GeoSearchStoreWithResultOptions": params("destinationKey", "sourceKey"),
		"GeoSearchStoreWithInfoOptions": params("destinationKey", "sourceKey"), "GeoSearchStoreWithFullOptions": params("destinationKey", "sourceKey"),
		"FCallWithKeysAndArgs": params("keys"), "FCallReadOnlyWithKeysAndArgs": params("keys"),
		"InvokeScriptWithOptions": scriptOptionKeys,
		"Migrate":                 params("keys"), "MigrateWithOptions": params("keys"), // MIGRATE ... KEYS: CROSSSLOT on a cluster
		"ZUnion": field("keys", "Keys"), "ZInter": field("keys", "Keys"),
		"ZUnionWithScores": field("keysOrWeightedKeys", "Keys"), "ZInterWithScores": field("keysOrWeightedKeys", "Keys"),
		"ZUnionStore": all(params("destination"), field("keysOrWeightedKeys", "Keys")), "ZInterStore": all(params("destination"), field("keysOrWeightedKeys", "Keys")),
		"ZUnionStoreWithOptions": all(params("destination"), field("keysOrWeightedKeys", "Keys")),
		"ZInterStoreWithOptions": all(params("destination"), field("keysOrWeightedKeys", "Keys")),
	}
})

// GlideSplitReads and GlideSplitWrites are the methods GLIDE's core splits
// per slot on a cluster client: a read is merged and fine; a write does
// not fail but is not atomic.
var (
	GlideSplitReads = map[string]bool{"MGet": true, "Exists": true, "Touch": true, "Watch": true,
		"MGET": true, "EXISTS": true, "TOUCH": true, "WATCH": true}
	GlideSplitWrites = map[string]bool{"Del": true, "Unlink": true, "MSet": true, "DEL": true, "UNLINK": true, "MSET": true}
)

// glideRefused ends the message of a command the server refuses across
// slots, in GLIDE's words.
const glideRefused = "; the server refuses it (CrossSlot)"

// glideCall recognizes a method of a GLIDE client, called on the client
// or through one of GLIDE's client interfaces.
func glideCall(common *ssa.CallCommon, ev *eval.Evaluator) *Site {
	m := ssaread.CalledFunc(common)
	if m == nil || m.Pkg() == nil || m.Signature().Recv() == nil {
		return nil
	}
	if !isGlidePackage(m.Pkg().Path()) {
		if !glideShaped(common, m) {
			return nil
		}
		site := NewSite(ev, common, m.Signature())
		site.Library, site.Method, site.Rule = Glide, m.Name(), glideMultiKey()[m.Name()]
		return site
	}
	if ssaread.IsNamed(m.Signature().Recv().Type(), glidePath+"/config", "ClusterSubscriptionConfig") && m.Name() == "WithSubscription" {
		return glideSubscription(common, ev, m)
	}
	if !isGlideClient(m.Signature().Recv().Type()) {
		return glideBatchCall(common, ev)
	}
	site := NewSite(ev, common, m.Signature())
	site.Library, site.Method, site.Rule = Glide, m.Name(), glideMultiKey()[m.Name()]
	glideCustomCommand(site)
	if site.Rule != nil && !GlideSplitReads[site.Method] && !GlideSplitWrites[site.Method] {
		site.Fate = glideRefused
	}
	return site
}

// glideCustomCommand reads CustomCommand(ctx, args) (of a client or a
// batch) as the command line args: its keys from the command table, and
// the command's name, which the core routes by, as the method's.
func glideCustomCommand(site *Site) {
	if site.Method != "CustomCommand" && site.Method != "CustomCommandWithRoute" {
		return
	}
	site.line = func() ([]eval.Element, bool) { return site.ElementsOfParam("args") }
	site.Rule = func(c *Site) []keymodel.Arg {
		elems, ok := c.line()
		if !ok || len(elems) == 0 {
			return nil
		}
		return commandKeys(c, elems)
	}
	if site.Method == "CustomCommandWithRoute" {
		return // the route given decides, not the name: nothing is split
	}
	if elems, ok := site.line(); ok && len(elems) > 0 {
		if name, ok := ssaread.ConstString(elems[0].Value); ok {
			site.Method, site.CommandLine = strings.ToUpper(name), true
		}
	}
}

func isGlidePackage(path string) bool {
	return InModule(path, glidePath)
}

// glideShaped reports a call through a project's own interface of GLIDE's
// client methods: one that declares a multi-key method of GLIDE's by name
// and takes or returns GLIDE's types in some method (a batch to Exec, a
// script's options, a models.Result)
//
//	type Client interface {
//		Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error)
//		SInter(ctx context.Context, keys []string) (map[string]struct{}, error)
//	}
//
// Its keys are where GLIDE's method has them, by parameter name.
func glideShaped(common *ssa.CallCommon, m *types.Func) bool {
	return common.IsInvoke() && GlideShaped(common.Value.Type(), m)
}

// GlideShaped reports a method m of the interface type t that is GLIDE's
// (see glideShaped).
func GlideShaped(t types.Type, m *types.Func) bool {
	if glideMultiKey()[m.Name()] == nil || t == nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range iface.NumMethods() {
		if namesGlideType(iface.Method(i).Signature()) {
			return true
		}
	}
	return false
}

// namesGlideType: a parameter or result of sig is, or points to, a type of
// GLIDE's module.
func namesGlideType(sig *types.Signature) bool {
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for v := range tuple.Variables() {
			t := v.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if s, ok := t.(*types.Slice); ok {
				t = s.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && isGlidePackage(n.Obj().Pkg().Path()) {
				return true
			}
		}
	}
	return false
}

// isGlideClient reports GLIDE's clients and their interfaces.
func isGlideClient(t types.Type) bool {
	for _, name := range []string{"baseClient", "ClusterClient", "Client"} {
		if ssaread.IsNamed(t, glidePath, name) {
			return true
		}
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == glidePath+"/interfaces" {
		return true
	}
	return false
}

// isGlideCluster and isGlideStandalone tell GLIDE's two clients apart by
// type: the interfaces are each implemented by one of them.
func isGlideCluster(t types.Type) bool {
	return ssaread.IsNamed(t, glidePath, "ClusterClient") || ssaread.IsNamed(t, glidePath+"/interfaces", "GlideClusterClientCommands") ||
		ssaread.IsNamed(t, glidePipeline, "ClusterBatch") || ssaread.IsNamed(t, glidePath+"/config", "ClusterSubscriptionConfig")
}

func isGlideStandalone(t types.Type) bool {
	return ssaread.IsNamed(t, glidePath, "Client") || ssaread.IsNamed(t, glidePath+"/interfaces", "GlideClientCommands") ||
		ssaread.IsNamed(t, glidePipeline, "StandaloneBatch")
}

// mapKeys takes the keys of a map argument that the calling function
// builds as a literal and changes nowhere else (MSet's keyValueMap, XRead's
// keysAndIds).
func mapKeys(name string) KeyRule {
	return func(c *Site) []keymodel.Arg {
		j, v, ok := c.Param(name)
		if !ok {
			return nil
		}
		mk, ok := v.(*ssa.MakeMap)
		if !ok {
			return nil
		}
		var out []keymodel.Arg
		for _, ref := range *mk.Referrers() {
			switch ref := ref.(type) {
			case *ssa.MapUpdate:
				if each, of, ok := c.Eval.MapFamily(ref); ok { // a key per element of a loop
					out = append(out, keymodel.Arg{Alts: each, Family: of, At: c.ArgPos(j)})
					continue
				}
				out = append(out, c.KeyArg(ref.Key, c.ArgPos(j)))
			case ssa.CallInstruction:
				if ref.Common() != c.Common {
					return nil // given to another call, which may change it
				}
			default:
				return nil
			}
		}
		return out
	}
}

// scriptOptionKeys reads InvokeScriptWithOptions's keys: ScriptOptions.Keys
// of a literal, or what WithKeys was given in an options chain,
// *options.NewScriptOptions().WithKeys(keys).WithArgs(args).
func scriptOptionKeys(c *Site) []keymodel.Arg {
	if keys := field("scriptOptions", "Keys")(c); keys != nil {
		return keys
	}
	calls, ok := optionCalls(c, "scriptOptions")
	if !ok {
		return nil
	}
	j, _, _ := c.Param("scriptOptions")
	for _, call := range calls {
		if ssaread.CalledFunc(&call.Call).Name() == "WithKeys" && len(call.Call.Args) == 2 {
			if elems, ok := ssaread.SliceElements(call.Call.Args[1]); ok {
				return c.keysAt(elems, c.ArgPos(j))
			}
		}
	}
	return nil
}

// GLIDE's batches (pipeline.NewClusterBatch(isAtomic)) queue commands as
// chained methods of BaseBatch, with the client's names and parameters. In
// an atomic batch the core sends every command to one node and refuses,
// on the client, commands of different slots; a command it would split
// fails there too. A batch that is not atomic routes each command as the
// client does.

const glidePipeline = glidePath + "/pipeline"

// glideBatchCall recognizes a command queued on a GLIDE batch.
func glideBatchCall(common *ssa.CallCommon, ev *eval.Evaluator) *Site {
	m := ssaread.CalledFunc(common)
	if m == nil || m.Pkg() == nil || m.Pkg().Path() != glidePipeline || m.Signature().Recv() == nil || !ssaread.IsNamed(m.Signature().Recv().Type(), glidePipeline, "BaseBatch") {
		return nil
	}
	site := NewSite(ev, common, m.Signature())
	site.Library, site.Method, site.Rule = Glide, m.Name(), glideMultiKey()[m.Name()]
	glideCustomCommand(site)
	if site.Rule != nil {
		site.Fate = glideRefused
	}
	return site
}

// glideLine writes the GLIDE methods the readiness checks judge as the
// command lines they send: Select(ctx, 2) is SELECT 2, Move(ctx, k, 2) is
// MOVE k 2, a batch's FlushDB() is FLUSHDB. (CustomCommand is its line.)
func glideLine(c *Site) (Line, bool) {
	var l Line
	arg := func(param string) {
		_, v, _ := c.Param(param)
		l.text(v, keymodel.Range{})
	}
	switch c.Method {
	case "Select":
		l.word("SELECT")
		arg("index")
	case "Move":
		l.word("MOVE")
		arg("key")
		arg("dbIndex")
	case "SortWithOptions", "SortReadOnlyWithOptions", "SortStoreWithOptions":
		name := "SORT"
		if c.Method == "SortReadOnlyWithOptions" {
			name = "SORT_RO"
		}
		l.word(name)
		arg("key")
		if !optionWords(c, &l, sortWords, "options", "opts") {
			return Line{}, false
		}
	case "CopyWithOptions":
		l.word("COPY")
		arg("source")
		arg("destination")
		if !optionWords(c, &l, copyWords, "options", "opts") {
			return Line{}, false
		}
	case "Subscribe", "SubscribeLazy", "PSubscribe", "PSubscribeLazy", "PSubscribeBlocking":
		name := "SUBSCRIBE"
		if strings.HasPrefix(c.Method, "P") {
			name = "PSUBSCRIBE"
		}
		l.word(name)
		for _, param := range []string{"channels", "patterns", "channelOrPattern"} {
			if _, v, ok := c.Param(param); ok && ssaread.IsString(v.Type()) {
				arg(param)
			} else if elems, ok := c.ElementsOfParam(param); ok {
				for _, el := range elems {
					l.text(el.Value, keymodel.Range{})
				}
			}
		}
	case "FlushDB", "FlushAll", "RandomKey", "DBSize":
		l.word(strings.ToUpper(c.Method))
	default:
		return Line{}, false
	}
	l.Name = l.Argv[0].Text
	return l, true
}

// GlideBatch is the NewClusterBatch (or NewStandaloneBatch) call that made
// the batch a command is queued on, through the chain of the methods
// before it; nil when the code does not show it.
func GlideBatch(site *Site) *ssa.Call {
	if site.Library != Glide {
		return nil
	}
	return GlideBatchOf(site.Client())
}

// GlideBatchOf is the call that made the batch v is: v itself, a command
// chained on it, or (as Exec takes it) a copy of what it points to.
func GlideBatchOf(v ssa.Value) *ssa.Call {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	for range maxRootDepth {
		call, ok := v.(*ssa.Call)
		if !ok {
			return nil
		}
		m := ssaread.CalledFunc(&call.Call)
		if m == nil || m.Pkg() == nil || m.Pkg().Path() != glidePipeline {
			return nil
		}
		if m.Name() == "NewClusterBatch" || m.Name() == "NewStandaloneBatch" {
			return call
		}
		v = ssaread.ReceiverValue(&call.Call)
		if fa, ok := v.(*ssa.FieldAddr); ok && ssaread.IsEmbedded(fa.X.Type(), fa.Field) {
			v = fa.X
		}
	}
	return nil
}

// GlideExec is the batch an Exec or ExecWithOptions of a GLIDE client runs.
func GlideExec(site *Site) (*ssa.Call, bool) {
	if site.Library != Glide || site.Method != "Exec" && site.Method != "ExecWithOptions" {
		return nil, false
	}
	_, v, ok := site.Param("batch")
	if !ok {
		return nil, false
	}
	batch := GlideBatchOf(v)
	return batch, batch != nil
}

// GlideAtomic reports a batch made atomic by a constant: NewClusterBatch(true).
func GlideAtomic(batch *ssa.Call) bool {
	return batch != nil && len(batch.Call.Args) == 1 && isTrue(batch.Call.Args[0])
}

// optionCalls are the setters of an options value the call is given as a
// chain, *options.NewSortOptions().SetByPattern("w_*"), in order; ok is
// false when the value is not such a chain.
func optionCalls(c *Site, params ...string) (calls []*ssa.Call, ok bool) {
	var v ssa.Value
	for _, param := range params {
		if _, v, ok = c.Param(param); ok {
			break
		}
	}
	if !ok {
		return nil, false
	}
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		v = load.X
	}
	for range maxRootDepth {
		call, ok := v.(*ssa.Call)
		if !ok {
			return nil, false
		}
		fn := ssaread.CalledFunc(&call.Call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != glidePath+"/options" {
			return nil, false
		}
		if fn.Signature().Recv() == nil {
			return calls, true // the constructor: NewSortOptions()
		}
		calls = append([]*ssa.Call{call}, calls...)
		v = call.Call.Args[0]
	}
	return nil, false
}

// optionWords writes the setters of an options chain that the readiness
// checks judge as the words of the command line they add: setter name to
// the word before its argument.
func optionWords(c *Site, l *Line, words map[string]string, params ...string) bool {
	calls, ok := optionCalls(c, params...)
	if !ok {
		return false
	}
	for _, call := range calls {
		word, ok := words[ssaread.CalledFunc(&call.Call).Name()]
		if !ok || len(call.Call.Args) < 2 {
			continue
		}
		l.word(word)
		l.text(call.Call.Args[1], keymodel.Range{})
	}
	return true
}

var (
	sortWords = map[string]string{"SetByPattern": "BY", "AddGetPattern": "GET"}
	copyWords = map[string]string{"SetDBDestination": "DB"}
)

// glideSubscription reads a cluster client's subscription configuration,
// WithSubscription(mode, channelOrPattern), as the SUBSCRIBE, PSUBSCRIBE
// or SSUBSCRIBE the client sends when it connects (mode: Exact, Pattern,
// Sharded, in that order).
func glideSubscription(common *ssa.CallCommon, ev *eval.Evaluator, m *types.Func) *Site {
	site := NewSite(ev, common, m.Signature())
	site.Library = Glide
	_, mode, ok := site.Param("mode")
	if !ok {
		return nil
	}
	n, ok := ssaread.ConstInt(mode)
	if !ok {
		return nil
	}
	switch n {
	case 0:
		site.Method = "Subscribe"
	case 1:
		site.Method = "PSubscribe"
	default:
		return nil // sharded channels follow their slots
	}
	return site
}

// glideScriptArgs are the ARGV of InvokeScriptWithOptions:
// ScriptOptions.Args of a literal, or what WithArgs was given in an options
// chain.
func glideScriptArgs(c *Site) ([]eval.Element, bool) {
	if args, ok := c.FieldOfParam("scriptOptions", "Args"); ok {
		values, ok := ssaread.SliceElements(args.Value)
		return elementsAt(values, args.At), ok
	}
	calls, ok := optionCalls(c, "scriptOptions")
	if !ok {
		return nil, false
	}
	j, _, _ := c.Param("scriptOptions")
	for _, call := range calls {
		if ssaread.CalledFunc(&call.Call).Name() == "WithArgs" && len(call.Call.Args) == 2 {
			values, ok := ssaread.SliceElements(call.Call.Args[1])
			return elementsAt(values, c.ArgPos(j)), ok
		}
	}
	return nil, true // no WithArgs: no ARGV
}

func elementsAt(values []ssa.Value, at keymodel.Range) []eval.Element {
	out := make([]eval.Element, len(values))
	for i, v := range values {
		out[i] = eval.Element{Value: v, At: at}
	}
	return out
}
