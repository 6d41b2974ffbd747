package clients

import (
	"go/types"
	"runtime"
	"sync"
	"weak"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// GoRedisPackages are the import paths of go-redis across its versions. The
// rules name parameters, not indexes, so one table serves v9, v8 (both take a
// context first) and the context-free v7 and v6.
var GoRedisPackages = map[string]bool{
	"github.com/redis/go-redis/v9": true,
	"github.com/go-redis/redis/v9": true, // v9's betas and release candidates
	"github.com/go-redis/redis/v8": true,
	"github.com/go-redis/redis/v7": true,
	"github.com/go-redis/redis":    true,
}

// MultiKeyMethods says where each go-redis method that can carry two or more
// keys takes them, as go-redis v9.23.0's source does.
var MultiKeyMethods = sync.OnceValue(multiKeyRules) // made on first use: most runs of the tool read no client call

func multiKeyRules() map[string]KeyRule {
	return map[string]KeyRule{
		// Variadic keys.
		"Del": params("keys"), "Unlink": params("keys"), "Exists": params("keys"), "Touch": params("keys"),
		"MGet": params("keys"), "PFCount": params("keys"),
		"SDiff": params("keys"), "SInter": params("keys"), "SUnion": params("keys"),
		"SInterCard": params("keys"), "SDiffCard": params("keys"), "SUnionCard": params("keys"),
		"ZInterCard": params("keys"), "ZDiff": params("keys"), "ZDiffWithScores": params("keys"),
		"BLPop": params("keys"), "BRPop": params("keys"), "BLMPop": params("keys"), "LMPop": params("keys"),
		"BZPopMax": params("keys"), "BZPopMin": params("keys"), "BZMPop": params("keys"), "ZMPop": params("keys"),
		"JSONMGet": params("keys"), "XReadStreams": firstHalf("streams"),
		// Sharded pub/sub channels hash like keys (see ShardedPubSub).
		"SSubscribe": params("channels"), "SUnsubscribe": params("channels"),

		// Fixed key parameters.
		"Rename": params("key", "newkey"), "RenameNX": params("key", "newkey"),
		"Copy":      params("sourceKey", "destKey"),
		"SortStore": params("key", "store"),
		"RPopLPush": params("source", "destination"), "BRPopLPush": params("source", "destination"),
		"LMove": params("source", "destination"), "BLMove": params("source", "destination"),
		"LMoveM": params("source", "destination"), "BLMoveM": params("source", "destination"),
		"SMove":          params("source", "destination"),
		"GeoSearchStore": params("key", "store"),
		"BitOpNot":       params("destKey", "key"),
		"TSCreateRule":   params("sourceKey", "destKey"), "TSCreateRuleWithArgs": params("sourceKey", "destKey"),
		"TSDeleteRule": params("sourceKey", "destKey"),

		// A destination, then variadic sources.
		"SDiffStore": params("destination", "keys"), "SInterStore": params("destination", "keys"),
		"SUnionStore": params("destination", "keys"), "ZDiffStore": params("destination", "keys"),
		"PFMerge":  params("dest", "keys"),
		"BitOpAnd": params("destKey", "keys"), "BitOpOr": params("destKey", "keys"), "BitOpXor": params("destKey", "keys"),
		"BitOpDiff": params("destKey", "keys"), "BitOpDiff1": params("destKey", "keys"),
		"BitOpAndOr": params("destKey", "keys"), "BitOpOne": params("destKey", "keys"),
		"CMSMerge": params("destKey", "sourceKeys"), "TDigestMerge": params("destKey", "sourceKeys"),

		// A keys []string parameter: scripts, functions, Script's methods.
		"Eval": params("keys"), "EvalRO": params("keys"), "EvalSha": params("keys"), "EvalShaRO": params("keys"),
		"FCall": params("keys"), "FCallRO": params("keys"), "FCallRo": params("keys"),
		"Run": params("keys"), "RunRO": params("keys"),
		"TSNRange": params("keys"), "TSNRangeWithArgs": params("keys"),
		"TSNRevRange": params("keys"), "TSNRevRangeWithArgs": params("keys"),

		// Alternating key, value; key, path, value.
		"MSet": pairs("values"), "MSetNX": pairs("values"), "MSetEX": pairs("values"),
		"JSONMSet": every(3, "params"),

		// Keys inside structs.
		"ZInterStore": all(params("destination"), field("store", "Keys")),
		"ZUnionStore": all(params("dest"), field("store", "Keys")),
		"ZInter":      field("store", "Keys"), "ZInterWithScores": field("store", "Keys"),
		"ZUnion": field("store", "Keys"), "ZUnionWithScores": field("store", "Keys"),
		"ZRangeStore":            all(params("dst"), field("z", "Key")),
		"LCS":                    all(field("q", "Key1"), field("q", "Key2")),
		"GeoRadiusStore":         all(params("key"), field("query", "Store"), field("query", "StoreDist")),
		"GeoRadiusByMemberStore": all(params("key"), field("query", "Store"), field("query", "StoreDist")),
		"XRead":                  xreadStreams,
		"XReadGroup":             xreadStreams,

		// Keys the analyzer does not follow yet: in a map (CMSMergeWithWeight's
		// source keys), in nested slices (TSMAdd) or in a slice of structs
		// (JSONMSetArgs). Only the plain parameters are read; the rest is silence.
		"CMSMergeWithWeight": params("destKey"),
		"TSMAdd":             notFollowed,
		"JSONMSetArgs":       notFollowed,

		// Transactions: WATCH on ClusterClient, Client and Tx; v7 also spells it
		// with a context.
		"Watch": params("keys"), "WatchContext": params("keys"),

		// Raw commands, by name; v7 also has DoContext.
		"Do": rawCommand, "DoContext": rawCommand,
	}
}

// SingleKeyParams are the parameter names go-redis gives keys; on methods
// outside MultiKeyMethods they are checked for malformed tags only.
var SingleKeyParams = map[string]bool{
	"key": true, "keys": true, "newkey": true, "source": true, "destination": true, "dest": true,
	"destKey": true, "sourceKey": true, "dst": true, "store": true, "stream": true,
}

// singleKeyFields are go-redis's single-key methods that take their key in
// a field of an arguments struct, by method: the parameter and the field.
var singleKeyFields = map[string][2]string{
	"XAdd": {"a", "Stream"}, "XAutoClaim": {"a", "Stream"}, "XAutoClaimJustID": {"a", "Stream"},
	"XAutoClaimWithDeleted": {"a", "Stream"}, "XClaim": {"a", "Stream"}, "XClaimJustID": {"a", "Stream"},
	"XCfgSet": {"a", "Stream"}, "XNack": {"a", "Stream"}, "XPendingExt": {"a", "Stream"},
	"ZRangeArgs": {"z", "Key"}, "ZRangeArgsWithScores": {"z", "Key"},
}

// SingleKeyArgs reads the parameters go-redis names as keys, and the key
// fields of its arguments structs, for tag checks and transactions.
func SingleKeyArgs(site *Site) []keymodel.Arg {
	var out []keymodel.Arg
	if f, ok := singleKeyFields[site.Method]; ok {
		out = append(out, field(f[0], f[1])(site)...)
	}
	params := site.Sig.Params()
	for i := range params.Len() {
		if name := params.At(i).Name(); SingleKeyParams[name] {
			out = append(out, site.KeysOfParam(name)...)
		}
	}
	return out
}

// GoRedisMethod is the go-redis method a call calls, nil for anything else.
func GoRedisMethod(common *ssa.CallCommon) *types.Func {
	m := ssaread.CalledFunc(common)
	if m == nil || m.Pkg() == nil || m.Signature().Recv() == nil {
		return nil
	}
	if GoRedisPackages[m.Pkg().Path()] {
		return m
	}
	if IsAdapter(m.Pkg().Path()) && (adapterTransactional(common, m) || isScriptType(m.Signature().Recv().Type()) || adapterPairs[m.Name()]) {
		return m // go-redis's API: its transactions, its Script, whose text the adapter's own code hides, and its pairs
	}
	if common.IsInvoke() {
		return goRedisShaped(m)
	}
	return nil
}

// Adapters are the clients' go-redis-compatible adapters, by package. Their
// plain commands are read through their own code (wrappers, see reading's
// interfaces.go); their transactions and pipelines are read as go-redis's,
// a table: the adapter queues a command on its pipeline by code the
// analysis does not follow (its own command buffer), and its methods have
// go-redis's names and parameters.
var Adapters = map[string]Adapter{
	"github.com/redis/rueidis/rueidiscompat":      {Client: "rueidis", Impl: "Compat"},
	"github.com/valkey-io/valkey-go/valkeycompat": {Client: "valkey-go", Impl: "Compat"},
}

// An Adapter is the client library under an adapter, for messages, and
// its client type: a call through the adapter's interface whose value the
// analysis cannot follow runs that type's method (the adapter's other
// implementations, its pipelines and its caching client, send the same
// commands).
type Adapter struct{ Client, Impl string }

// IsAdapter reports an adapter's package.
func IsAdapter(path string) bool { _, ok := Adapters[path]; return ok }

// AdapterMethod is the adapter's client method that a call of m runs: m
// itself when it is an adapter's interface method, or a project's own
// interface method declared with the adapter's signature
//
//	type store interface{ MGet(ctx context.Context, keys ...string) *valkeycompat.SliceCmd }
//
// (its results name the adapter's types); nil for any other method.
func AdapterMethod(m *types.Func) *types.Func {
	if m == nil || m.Pkg() == nil {
		return nil
	}
	pkg := m.Pkg()
	if !IsAdapter(pkg.Path()) {
		if pkg = resultPackage(m.Signature(), IsAdapter); pkg == nil {
			return nil
		}
	}
	tn, ok := pkg.Scope().Lookup(Adapters[pkg.Path()].Impl).(*types.TypeName)
	if !ok {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, m.Name())
	impl, ok := obj.(*types.Func)
	if !ok || !types.Identical(impl.Signature(), m.Signature()) {
		return nil
	}
	return impl
}

// adapterPairs are the adapters' methods that take keys and values as
// pairs of one variadic ...any (MSet(ctx, k1, v1, k2, v2)): the adapter
// turns them into its command's arguments at run time (argsToSlice, then a
// loop by twos) in code that does not show which are keys, so they are
// read by go-redis's table, whose methods they mirror.
var adapterPairs = map[string]bool{"MSet": true, "MSetNX": true}

// adapterTransactional reports an adapter's call that opens a
// transaction or pipeline (TxPipelined, TxPipeline, Watch, Pipelined,
// Pipeline), or queues a command on its Pipeliner or Tx.
func adapterTransactional(common *ssa.CallCommon, m *types.Func) bool {
	switch m.Name() {
	case "TxPipelined", "TxPipeline", "Watch", "Pipelined", "Pipeline":
		return true
	}
	if !common.IsInvoke() {
		return false
	}
	t := common.Value.Type()
	return ssaread.IsNamed(t, m.Pkg().Path(), "Pipeliner") || ssaread.IsNamed(t, m.Pkg().Path(), "Tx")
}

// goRedisShaped is go-redis's method for a method of a project's own
// interface that go-redis's Cmdable declares with the same signature:
//
//	type cache interface{ MGet(ctx context.Context, keys ...string) *redis.SliceCmd }
//
// Whatever the interface holds — a go-redis client, most often — the call
// sends go-redis's command, so it is read as go-redis's method (its
// parameter names, its rule). nil when the method is not so.
func goRedisShaped(m *types.Func) *types.Func {
	key := weak.Make(m)
	if v, ok := shaped.Load(key); ok {
		return v.(*types.Func)
	}
	var out *types.Func
	if pkg := resultPackage(m.Signature(), func(path string) bool { return GoRedisPackages[path] }); pkg != nil {
		if cmdable, ok := pkg.Scope().Lookup("Cmdable").(*types.TypeName); ok {
			obj, _, _ := types.LookupFieldOrMethod(cmdable.Type(), false, pkg, m.Name())
			if gm, ok := obj.(*types.Func); ok && types.Identical(gm.Signature(), m.Signature()) {
				out = gm
			}
		}
	}
	if _, loaded := shaped.LoadOrStore(key, out); !loaded {
		runtime.AddCleanup(m, func(key weak.Pointer[types.Func]) { shaped.Delete(key) }, key)
	}
	return out
}

// GoRedisShaped reports a method of a project's interface that is
// go-redis's (see goRedisShaped).
func GoRedisShaped(m *types.Func) bool {
	return m != nil && m.Pkg() != nil && !GoRedisPackages[m.Pkg().Path()] && goRedisShaped(m) != nil
}

// shaped caches goRedisShaped, by a weak pointer to the method: packages
// are analyzed concurrently, and a long-lived driver (the language server)
// checks a package again and again, each time with new objects, which the
// cache must not keep alive; an entry goes with its method.
var shaped sync.Map

// resultPackage is the package, of those in names, that a signature's
// results name: go-redis's commands return *redis.XCmd, an adapter's its
// own *XCmd. Nil when none does.
func resultPackage(sig *types.Signature, in func(path string) bool) *types.Package {
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil && in(named.Obj().Pkg().Path()) {
			return named.Obj().Pkg()
		}
	}
	return nil
}

// SingleNodeMakers are go-redis methods whose result talks to the node its
// receiver talks to.
var SingleNodeMakers = map[string]bool{"Pipeline": true, "TxPipeline": true, "Conn": true, "WithTimeout": true,
	"Subscribe": true, "PSubscribe": true, "SSubscribe": true}

// ShardedPubSub are the methods and commands whose "keys" are sharded
// pub/sub channels.
var ShardedPubSub = map[string]bool{"SSubscribe": true, "SUnsubscribe": true, "SSUBSCRIBE": true, "SUNSUBSCRIBE": true}

// SingleNodeCallbacks are go-redis methods that call a function argument
// with a pipeline or transaction of their receiver's node.
var SingleNodeCallbacks = map[string]bool{"Pipelined": true, "TxPipelined": true, "Watch": true}

// IsGoRedisType reports a type go-redis declares, or a pointer to one.
func IsGoRedisType(t types.Type) bool {
	_, ok := goRedisName(t)
	return ok
}

// goRedisName is the name of a go-redis type t, or of the type t points to.
func goRedisName(t types.Type) (string, bool) {
	if t == nil {
		return "", false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !GoRedisPackages[named.Obj().Pkg().Path()] {
		return "", false
	}
	return named.Obj().Name(), true
}

// PipelineType reports whether a value of type t can be a pipeline or a
// transaction: a go-redis interface that pipelines implement, or *Tx.
func PipelineType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	if IsAdapter(named.Obj().Pkg().Path()) {
		return named.Obj().Name() == "Pipeliner" || named.Obj().Name() == "Tx"
	}
	if !GoRedisPackages[named.Obj().Pkg().Path()] {
		return false
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		return named.Obj().Name() != "UniversalClient"
	}
	return named.Obj().Name() == "Tx"
}

// TransactionFate says what the module's go-redis does with a transaction
// across slots, told from the package itself: v9.11.0 added ErrCrossSlot.
func TransactionFate(m *types.Func) string {
	if a, ok := Adapters[m.Pkg().Path()]; ok {
		return "the adapter's " + a.Client + " cluster client panics on it (Mixing no-slot and cross slot commands in DoMulti is prohibited)"
	}
	if m.Pkg().Path() == "github.com/redis/go-redis/v9" && m.Pkg().Scope().Lookup("ErrCrossSlot") != nil {
		return "go-redis v9.11+ rejects this transaction (ErrCrossSlot)"
	}
	return "go-redis before v9.11 splits it per slot: it is not atomic"
}

// isScriptType reports go-redis's Script, or an adapter's (rueidiscompat's
// and valkeycompat's have its methods and parameters).
func isScriptType(t types.Type) bool {
	for path := range GoRedisPackages {
		if ssaread.IsNamed(t, path, "Script") {
			return true
		}
	}
	for path := range Adapters {
		if ssaread.IsNamed(t, path, "Script") {
			return true
		}
	}
	return false
}

// A ClusterClient given SetCommandInfoResolver(c.NewDynamicResolver()) routes
// each command by the policy the server's COMMAND tips give it: the
// multi-shard commands below are split by slot and their replies merged, so
// keys on different slots are no error, and a write is no longer atomic
// (MSETNX across slots sets the keys of one slot and not another's). Checked
// on a three-master Redis 7.0.15 cluster with go-redis v9.23.0; other
// commands across slots are still refused.
var (
	SplitReads  = map[string]bool{"MGet": true, "Exists": true, "Touch": true}
	SplitWrites = map[string]bool{"Del": true, "Unlink": true, "MSet": true, "MSetNX": true}
	// AllShards run on every master with the resolver: not on one node.
	AllShards = map[string]bool{"FlushDB": true, "FlushDBAsync": true, "FlushAll": true, "FlushAllAsync": true, "RandomKey": true}
)

// SplittingResolverSet reports a call that gives a go-redis client a
// command-info resolver, and returns the client.
func SplittingResolverSet(common *ssa.CallCommon) (ssa.Value, bool) {
	m := GoRedisMethod(common)
	if m == nil || m.Name() != "SetCommandInfoResolver" || len(common.Args) == 0 {
		return nil, false
	}
	if c, ok := common.Args[len(common.Args)-1].(*ssa.Const); ok && c.IsNil() {
		return nil, false // the resolver taken away
	}
	return ssaread.ReceiverValue(common), true
}
