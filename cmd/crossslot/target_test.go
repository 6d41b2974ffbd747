package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTargetFile: go vet and the standalone command read a module's
// crossslot.conf, see it edited without a cache clean (the target is part
// of go vet's key for the tool and of lintcmd's cache directory), let the
// flag override it, and stop on a bad one with an error naming the file.
func TestTargetFile(t *testing.T) {
	dir := sortModule(t)
	conf := filepath.Join(dir, "crossslot.conf")
	write := func(text string) {
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const getSelf = `SORT GET "#" reads keys by a pattern, which Redis 7.0 refuses in cluster mode whatever the pattern`
	env := append(fixtureEnv(), "STATICCHECK_CACHE="+t.TempDir())
	vet := func(args ...string) (string, int) {
		_, stderr, code := runIn(t, dir, env, "go", append([]string{"vet", "-vettool=" + crossslotBin}, append(args, "./...")...)...)
		return stderr, code
	}
	standalone := func(args ...string) (string, int) {
		stdout, stderr, code := runIn(t, dir, env, crossslotBin, append(args, "./...")...)
		return stdout + stderr, code
	}
	write(`target = "redis:7.0"`)
	for name, run := range map[string]func(...string) (string, int){"go vet": vet, "crossslot": standalone} {
		if out, _ := run(); !strings.Contains(out, getSelf) {
			t.Errorf("%s with target redis:7.0: no GET # finding:\n%s", name, out)
		}
	}
	write("# the newest releases\ntarget = \"latest\"\n")
	for name, run := range map[string]func(...string) (string, int){"go vet": vet, "crossslot": standalone} {
		if out, _ := run(); strings.Contains(out, `SORT GET "#"`) || !strings.Contains(out, `SORT BY "weight_*"`) {
			t.Errorf("%s after the file says latest: GET # still reported, or BY weight_* not:\n%s", name, out)
		}
		if out, _ := run("-crossslot.target=redis:7.0"); !strings.Contains(out, getSelf) {
			t.Errorf("%s -crossslot.target=redis:7.0 over the file: no GET # finding:\n%s", name, out)
		}
	}
	write(`target = "redis:7.3"`)
	for name, run := range map[string]func(...string) (string, int){"go vet": vet, "crossslot": standalone} {
		out, code := run()
		if code == 0 || !strings.Contains(out, "crossslot.conf: target:") || !strings.Contains(out, "redis has no release line 7.3") {
			t.Errorf("%s with a bad crossslot.conf: exit %d; want a failure naming the file and the value:\n%s", name, code, out)
		}
	}
}

// sortModule writes a small module that sorts with go-redis's cluster
// client, against the analyzer's go-redis stub (testdata/src) so that go
// vet analyzes few dependencies under each target.
func sortModule(t *testing.T) string {
	dir := t.TempDir()
	stub, err := os.ReadFile("../../testdata/src/github.com/redis/go-redis/v9/redis.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":           "module example.com/sorts\n\ngo 1.26.0\n\nrequire github.com/redis/go-redis/v9 v9.23.0\n\nreplace github.com/redis/go-redis/v9 => ./goredis\n",
		"goredis/go.mod":   "module github.com/redis/go-redis/v9\n\ngo 1.26.0\n",
		"goredis/redis.go": string(stub),
		"main.go": `package main

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func main() {
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000", "b:7000"}})
	rdb.Sort(ctx, "ids", &redis.Sort{By: "weight_*"})
	rdb.Sort(ctx, "ids", &redis.Sort{Get: []string{"#"}})
}
`,
	}
	writeFiles(t, dir, files)
	return dir
}

// writeFiles writes files (by path relative to dir) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVetBadFlag: a bad analyzer flag under go vet is said once, under the
// heading of a package the user asked for (not of the standard library's
// first dependency, which go vet runs the tool on first), naming the flag,
// its value and the values it takes, without unitchecker's usage; the run
// fails. The flag given as two arguments is read the same.
func TestVetBadFlag(t *testing.T) {
	dir := sortModule(t)
	writeFiles(t, dir, map[string]string{"other/other.go": "package other\n\nfunc F() {}\n"})
	env := append(fixtureEnv(), "STATICCHECK_CACHE="+t.TempDir())
	for _, flags := range [][]string{{"-crossslot.target=bogus"}, {"-crossslot.target", "bogus"}} {
		_, stderr, code := runIn(t, dir, env, "go", append(append([]string{"vet", "-vettool=" + crossslotBin}, flags...), "./...")...)
		const said = `crossslot: -crossslot.target=bogus, for every package of the run (none is analyzed): "bogus" is not a target: unknown server "bogus"; want latest (the default); redis[:7.0`
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code == 0 || strings.Count(stderr, said) != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], "# example.com/sorts") {
			t.Errorf("go vet %v: exit %d; want a failure saying once, under a heading of this module's:\n%s\n%s", flags, code, said, stderr)
		}
	}
}
