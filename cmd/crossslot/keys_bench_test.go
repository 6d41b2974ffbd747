package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// BenchmarkKeys compares `crossslot keys -f json` with the standalone run
// it is built on, over a generated module of 100 packages (each builds keys
// with a helper of the one before it, through facts, and sends them in
// multi-key commands and a transaction), each iteration with an empty
// analysis cache:
//
//	go test ./cmd/crossslot -run '^$' -bench Keys -benchtime 3x -count 5
func BenchmarkKeys(b *testing.B) {
	dir := hundredPackages(b)
	// One run first, untimed: the go command's build cache (export data of
	// go-redis and the standard library) is then warm for both.
	if _, stderr, code := cmdtest.Run(b, dir, append(fixtureEnv(), "STATICCHECK_CACHE="+b.TempDir()), crossslotBin, "-f", "json", "./..."); code != 0 && code != exitFindings {
		b.Fatalf("warm-up: exit %d\n%s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"standalone", []string{"-f", "json", "./..."}},
		{"keys", []string{"keys", "-f", "json", "./..."}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				env := append(fixtureEnv(), "STATICCHECK_CACHE="+b.TempDir())
				if _, stderr, code := cmdtest.Run(b, dir, env, crossslotBin, tc.args...); code != 0 && code != exitFindings {
					b.Fatalf("%v: exit %d\n%s", tc.args, code, stderr)
				}
			}
		})
	}
}

// BenchmarkWarm compares `crossslot keys` and `crossslot readiness` with
// the standalone run on one analysis cache that a standalone run warmed:
// the key map and the readiness report are the analysis's records, cached
// with its findings, so they read the cache as the findings do.
//
//	go test ./cmd/crossslot -run '^$' -bench Warm -count 6
func BenchmarkWarm(b *testing.B) {
	dir := hundredPackages(b)
	env := append(fixtureEnv(), "STATICCHECK_CACHE="+b.TempDir())
	if _, stderr, code := cmdtest.Run(b, dir, env, crossslotBin, "-f", "json", "./..."); code != 0 && code != exitFindings {
		b.Fatalf("warm-up: exit %d\n%s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"standalone", []string{"-f", "json", "./..."}},
		{"keys", []string{"keys", "-f", "json", "./..."}},
		{"readiness", []string{"readiness", "./..."}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, stderr, code := cmdtest.Run(b, dir, env, crossslotBin, tc.args...); code != 0 && code != exitFindings {
					b.Fatalf("%v: exit %d\n%s", tc.args, code, stderr)
				}
			}
		})
	}
}

// hundredPackages writes a module of 100 packages that use go-redis, with
// the example's go.mod and go.sum.
func hundredPackages(b *testing.B) string {
	dir := b.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(exampleDir, f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		pkg := filepath.Join(dir, fmt.Sprintf("p%03d", i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			b.Fatal(err)
		}
		prev, imp := `func prev(id string) string { return "base:" + id }`, ""
		if i > 0 {
			prev = fmt.Sprintf(`func prev(id string) string { return p%03d.Key(id) }`, i-1)
			imp = fmt.Sprintf(`"example.com/shop/p%03d"`, i-1)
		}
		src := fmt.Sprintf(`package p%03d

import (
	"context"

	"github.com/redis/go-redis/v9"
	%s
)

%s

// Key is the package's key of an entity.
func Key(id string) string { return "p%03d:{" + prev(id) + "}:a" }

func Use(ctx context.Context, rdb *redis.ClusterClient, id, other string) {
	rdb.MGet(ctx, Key(id), "p%03d:{"+prev(id)+"}:b")
	rdb.MGet(ctx, Key(id), Key(other))
	rdb.Del(ctx, "p%03d:"+id, "p%03d:"+other)
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, Key(id))
		p.Incr(ctx, "p%03d:count")
		return nil
	})
}
`, i, imp, prev, i, i, i, i, i)
		if err := os.WriteFile(filepath.Join(pkg, "p.go"), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
