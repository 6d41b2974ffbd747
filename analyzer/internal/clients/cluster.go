package clients

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// redisc is the cluster library built on redigo.
const rediscPath = "github.com/mna/redisc"

// singleNodeTypes are receivers that talk to one node, where keys on
// different slots are legal; skipped unless -include-single-node is set.
var singleNodeTypes = map[string]bool{"Client": true, "Conn": true}

// IsSingleNodeType reports a client type that talks to one node: go-redis's
// *redis.Client or *redis.Conn, GLIDE's *glide.Client or its interface.
func IsSingleNodeType(t types.Type) bool {
	name, ok := goRedisName(t)
	return ok && singleNodeTypes[name] || isGlideStandalone(t)
}

// IsClusterClientType reports go-redis's *redis.ClusterClient and GLIDE's
// *glide.ClusterClient or its interface.
func IsClusterClientType(t types.Type) bool {
	name, ok := goRedisName(t)
	return ok && name == "ClusterClient" || isGlideCluster(t)
}

// IsRing reports go-redis's *Ring (v7 to v9), which shards keys over
// independent servers by their hash tags: a command goes to the shard of
// its first key, a transaction runs one MULTI/EXEC per shard.
func IsRing(t types.Type) bool {
	name, ok := goRedisName(t)
	return ok && name == "Ring"
}

// MakesClusterClient reports a call that surely makes a client of a
// cluster: go-redis's NewClusterClient, or NewUniversalClient with two or
// more addresses (or IsClusterMode) and no MasterName; rueidis's or
// valkey-go's NewClient with two or more InitAddress, not forced to one
// node; a connection of redisc's Cluster (Get, Dial). Options are read
// where the call writes them, as composite literals.
func MakesClusterClient(call *ssa.Call, ev *eval.Evaluator) bool {
	fn, pkg, site, ok := constructor(call, ev)
	if !ok {
		return false
	}
	switch {
	case GoRedisPackages[pkg.Path()] && fn.Name() == "NewClusterClient":
		return true
	case GoRedisPackages[pkg.Path()] && fn.Name() == "NewUniversalClient":
		if master, ok := site.FieldOfParam("opts", "MasterName"); !ok || !isZero(master.Value) {
			return false
		}
		if mode, ok := site.FieldOfParam("opts", "IsClusterMode"); ok && isTrue(mode.Value) {
			return true
		}
		return site.severalIn("opts", "Addrs")
	case builderModules[pkg.Path()] && fn.Name() == "NewClient":
		if single, ok := site.FieldOfParam("option", "ForceSingleClient"); !ok || isTrue(single.Value) {
			return false
		}
		return site.severalIn("option", "InitAddress")
	case pkg.Path() == rediscPath && (fn.Name() == "Get" || fn.Name() == "Dial"):
		return fn.Signature.Recv() != nil && ssaread.IsNamed(fn.Signature.Recv().Type(), rediscPath, "Cluster")
	}
	return false
}

// StartsClusterProof reports whether naming obj may start a proof that a
// client talks to a cluster: its type holds a cluster client type
// (IsClusterClientType; a function's results, a slice's elements), or it is
// a constructor MakesClusterClient reads. Every expression a proof starts
// from names one: a value of a cluster client type is a variable, a field,
// a call or a conversion naming one.
func StartsClusterProof(obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.Func:
		if pkg := obj.Pkg(); pkg != nil {
			switch path := pkg.Path(); {
			case GoRedisPackages[path] && (obj.Name() == "NewClusterClient" || obj.Name() == "NewUniversalClient"),
				builderModules[path] && obj.Name() == "NewClient",
				path == rediscPath:
				return true
			}
		}
		return holdsClusterType(obj.Signature().Results(), 0)
	case *types.Var, *types.TypeName:
		return holdsClusterType(obj.Type(), 0)
	}
	return false
}

// holdsClusterType: t is a cluster client type or is made of one.
func holdsClusterType(t types.Type, depth int) bool {
	if t == nil || depth > 4 {
		return false
	}
	if IsClusterClientType(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case interface{ Elem() types.Type }: // a pointer, slice, array, map or channel
		return holdsClusterType(u.Elem(), depth+1)
	case *types.Signature:
		return holdsClusterType(u.Results(), depth+1)
	case *types.Tuple:
		for v := range u.Variables() {
			if holdsClusterType(v.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// MakesSingleNodeClient reports a call that surely makes a client of one
// server although its type could hold a cluster client: go-redis's
// NewUniversalClient given a MasterName (a Sentinel group: one master) or
// at most one address and no IsClusterMode (a *redis.Client, in v6 to v9
// alike); rueidis's or valkey-go's NewClient forced to one node
// (ForceSingleClient). Options are read where the call writes them, as
// composite literals; options from elsewhere may make either.
func MakesSingleNodeClient(call *ssa.Call, ev *eval.Evaluator) bool {
	fn, pkg, site, ok := constructor(call, ev)
	if !ok {
		return false
	}
	switch {
	case GoRedisPackages[pkg.Path()] && fn.Name() == "NewUniversalClient":
		master, ok := site.FieldOfParam("opts", "MasterName")
		if !ok {
			return false
		}
		if isNonEmptyString(master.Value) {
			return true
		}
		if !isZero(master.Value) {
			return false
		}
		if mode, ok := site.FieldOfParam("opts", "IsClusterMode"); ok && !isFalse(mode.Value) {
			return false // set, or not known
		}
		addrs, ok := site.FieldOfParam("opts", "Addrs")
		if !ok {
			return false
		}
		elems, ok := ssaread.SliceElements(addrs.Value)
		return ok && len(elems) <= 1
	case builderModules[pkg.Path()] && fn.Name() == "NewClient":
		single, ok := site.FieldOfParam("option", "ForceSingleClient")
		return ok && isTrue(single.Value)
	}
	return false
}

// constructor is the function a call calls, its package and the call as
// the rules see it; ok is false for a call of no known function.
func constructor(call *ssa.Call, ev *eval.Evaluator) (*ssa.Function, *types.Package, *Site, bool) {
	fn := call.Call.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	if pkg == nil {
		return nil, nil, nil, false
	}
	return fn, pkg, SiteOf(ev, &call.Call), true
}

// MakesSentinelClient reports a call of go-redis's NewFailoverClusterClient:
// a *ClusterClient by type, but over a Sentinel group (a master and its
// replicas, each with every key), not a Redis Cluster: it refuses nothing a
// single server accepts, and a keyspace-wide command sees every key.
func MakesSentinelClient(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := call.Call.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	return pkg != nil && GoRedisPackages[pkg.Path()] && fn.Name() == "NewFailoverClusterClient"
}

// MakesClientByAddrCount reports a call of go-redis's NewUniversalClient,
// with no MasterName, whose Addrs the code does not count: the client it
// makes is a cluster client for two or more addresses (or IsClusterMode),
// a plain client for one, and the code does not say which.
func MakesClientByAddrCount(call *ssa.Call, ev *eval.Evaluator) bool {
	fn, pkg, site, ok := constructor(call, ev)
	if !ok || !GoRedisPackages[pkg.Path()] || fn.Name() != "NewUniversalClient" {
		return false
	}
	if master, ok := site.FieldOfParam("opts", "MasterName"); !ok || !isZero(master.Value) {
		return false // a failover client for a MasterName: a Sentinel group's master
	}
	addrs, ok := site.FieldOfParam("opts", "Addrs")
	if !ok {
		return false // options built elsewhere: MasterName is not known either
	}
	_, counted := ssaread.SliceElements(addrs.Value)
	return !counted
}

// severalIn: the options' slice field holds two or more elements.
func (c *Site) severalIn(param, field string) bool {
	v, ok := c.FieldOfParam(param, field)
	if !ok {
		return false
	}
	elems, ok := ssaread.SliceElements(v.Value)
	return ok && len(elems) >= 2
}

// BuilderClient is the client a rueidis or valkey-go command is built on:
// the receiver of the B() that starts the chain; nil when not found.
func BuilderClient(builder ssa.Value) ssa.Value {
	b, ok := builder.(*ssa.Call)
	if !ok || !b.Call.IsInvoke() || b.Call.Method.Name() != "B" {
		return nil
	}
	return b.Call.Value
}

func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && (c.Value == nil || c.Value.Kind() == constant.String && constant.StringVal(c.Value) == "")
}

// isFalse: a false constant, or a field a literal leaves unset.
func isFalse(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && (c.Value == nil || c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value))
}

func isNonEmptyString(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String && constant.StringVal(c.Value) != ""
}

func isTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// DialsRediscCluster reports a redigo dial option written in the slice a
// redisc Cluster's DialOptions field is given as a literal: the cluster
// dials every node with it.
func DialsRediscCluster(opt ssa.Value) bool {
	for _, ref := range *opt.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != opt {
			continue
		}
		ia, ok := st.Addr.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		arr, ok := ia.X.(*ssa.Alloc)
		if !ok {
			continue
		}
		for _, use := range *arr.Referrers() {
			s, ok := use.(*ssa.Slice)
			if !ok {
				continue
			}
			for _, u := range *s.Referrers() {
				if st, ok := u.(*ssa.Store); ok && st.Val == s && isRediscDialOptions(st.Addr) {
					return true
				}
			}
		}
	}
	return false
}

// isRediscDialOptions: addr is the DialOptions field of a redisc Cluster.
func isRediscDialOptions(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok || !ssaread.IsNamed(ptr.Elem(), rediscPath, "Cluster") {
		return false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	return ok && st.Field(fa.Field).Name() == "DialOptions"
}
