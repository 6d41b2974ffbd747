package clients

import (
	"go/types"
	"runtime"
	"testing"
)

// TestShapedCacheLetsMethodsGo: goRedisShaped's cache keeps no method
// alive: a driver that checks packages again and again (the language
// server) makes new objects each time, and the old must be collected.
func TestShapedCacheLetsMethodsGo(t *testing.T) {
	redis := types.NewPackage("github.com/redis/go-redis/v9", "redis")
	sliceCmd := types.NewNamed(types.NewTypeName(0, redis, "SliceCmd", nil), types.NewStruct(nil, nil), nil)
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(0, nil, "keys", types.NewSlice(types.Typ[types.String]))),
		types.NewTuple(types.NewVar(0, nil, "", types.NewPointer(sliceCmd))), true)
	cmdable := types.NewInterfaceType([]*types.Func{types.NewFunc(0, redis, "MGet", sig)}, nil).Complete()
	redis.Scope().Insert(types.NewTypeName(0, redis, "Cmdable", cmdable))
	entries := func() int {
		n := 0
		shaped.Range(func(any, any) bool { n++; return true })
		return n
	}
	before := entries()
	project := types.NewPackage("example.com/cache", "cache")
	func() {
		m := types.NewFunc(0, project, "MGet", sig)
		if got := goRedisShaped(m); got == nil || got.Pkg() != redis {
			t.Fatalf("goRedisShaped(cache.MGet) = %v; want go-redis's MGet", got)
		}
		if entries() != before+1 {
			t.Fatalf("%d entries cached; want %d", entries(), before+1)
		}
	}()
	// The method is unreachable now: collections run its cleanup, which
	// drops the entry (bounded by collections, not by time).
	for i := 0; i < 1000 && entries() > before; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if entries() > before {
		t.Errorf("the cache still holds a method nothing else holds after 1000 collections")
	}
}
