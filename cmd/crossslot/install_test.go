package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// TestToolDependency installs crossslot as the README says, as a tool
// dependency of a module (go get -tool; a replace to this checkout stands in
// for the release), and runs go vet through go tool -n: the vet tool is the
// one the module pins, and a missing one fails loudly instead of running
// stock vet.
func TestToolDependency(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := cmdtest.CopyDir(t, filepath.Join(root, "testdata", "golangci"))
	env := fixtureEnv()
	run := func(name string, args ...string) string {
		t.Helper()
		stdout, stderr, code := runIn(t, dir, env, name, args...)
		if code != 0 {
			t.Fatalf("%s %s: exit %d\n%s%s", name, strings.Join(args, " "), code, stdout, stderr)
		}
		return strings.TrimSpace(stdout)
	}
	// After a release: go get -tool github.com/crossslot/crossslot/cmd/crossslot@latest
	run("go", "mod", "edit", "-replace", "github.com/crossslot/crossslot="+root,
		"-require", "github.com/crossslot/crossslot@v0.0.0", "-tool", "github.com/crossslot/crossslot/cmd/crossslot")
	run("go", "mod", "tidy")
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(b), "tool github.com/crossslot/crossslot/cmd/crossslot") {
		t.Fatalf("go.mod has no tool line:\n%s", b)
	}
	tool := run("go", "tool", "-n", "crossslot")
	if !filepath.IsAbs(tool) {
		t.Fatalf("go tool -n crossslot: %q, want an absolute path", tool)
	}
	_, stderr, code := runIn(t, dir, env, "go", "vet", "-vettool="+tool, "./...")
	if code != 1 || !strings.Contains(stderr, `MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots`) {
		t.Errorf("go vet -vettool=$(go tool -n crossslot): exit %d\n%s", code, stderr)
	}
	// The trap the README warns of: an empty -vettool runs stock vet, which
	// finds nothing here and succeeds.
	if _, stderr, code := runIn(t, dir, env, "go", "vet", "-vettool=", "./..."); code == 1 && strings.Contains(stderr, "MGet keys") {
		t.Errorf("go vet -vettool= ran crossslot?\n%s", stderr)
	}
}

// TestReadmeToolsModule runs the tools.mod recipe of docs/reference.md line
// by line in a copy of a module (the clone's path put in): crossslot is
// pinned and runs through go tool -modfile, and go.mod and go.sum are left as
// they were.
func TestReadmeToolsModule(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := cmdtest.CopyDir(t, filepath.Join(root, "testdata", "golangci"))
	before := map[string][]byte{}
	for _, f := range []string{"go.mod", "go.sum"} {
		before[f], _ = os.ReadFile(filepath.Join(dir, f))
	}
	script := strings.ReplaceAll(readmeRecipe(t, "tools-module"), "/path/to/crossslot", root)
	stdout, stderr, code := runIn(t, dir, fixtureEnv(), "bash", "-c", script)
	// The last line is go vet, which exits 1 on the module's findings.
	if code != 1 || !strings.Contains(stderr, `MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots`) {
		t.Fatalf("the recipe: exit %d\n%s%s", code, stdout, stderr)
	}
	for f, b := range before {
		if after, _ := os.ReadFile(filepath.Join(dir, f)); string(after) != string(b) {
			t.Errorf("the recipe changed %s", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "tools.mod")); !strings.Contains(string(b), "tool github.com/crossslot/crossslot/cmd/crossslot") {
		t.Errorf("tools.mod has no tool line:\n%s", b)
	}
}

// TestToolDependencyChangesGoMod measures what the README warns of: pinning
// crossslot in go.mod itself adds requirements to it.
func TestToolDependencyChangesGoMod(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := cmdtest.CopyDir(t, filepath.Join(root, "testdata", "golangci"))
	requires := func() int {
		b, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
		return strings.Count(string(b), "// indirect")
	}
	before := requires()
	for _, args := range [][]string{
		{"mod", "edit", "-replace", "github.com/crossslot/crossslot=" + root, "-require", "github.com/crossslot/crossslot@v0.0.0", "-tool", "github.com/crossslot/crossslot/cmd/crossslot"},
		{"mod", "tidy"},
	} {
		if _, stderr, code := runIn(t, dir, fixtureEnv(), "go", args...); code != 0 {
			t.Fatalf("go %v: %s", args, stderr)
		}
	}
	added := requires() - before
	if added < 5 {
		t.Errorf("go.mod gained %d indirect requirements; the README says about ten", added)
	}
	t.Logf("pinning crossslot in go.mod added %d indirect requirements", added)
}

// TestReadmeGuard follows docs/guards.md from a scratch module outside the
// repository: the guard's install lines (the clone's path put in), then its
// miniredis test, which must pass: the guard refuses the cross-slot MGET
// that miniredis would answer.
func TestReadmeGuard(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := scratchModule(t, "shop_test.go", readmeRecipe(t, "guard-test"))
	env := fixtureEnv()
	script := strings.ReplaceAll(readmeRecipe(t, "guard-install"), "/path/to/crossslot", root)
	if stdout, stderr, code := runIn(t, dir, env, "bash", "-e", "-c", script); code != 0 {
		t.Fatalf("the install lines: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code := runIn(t, dir, env, "go", "test", "-count=1", "-v", "./...")
	if code != 0 || !strings.Contains(stdout, "--- PASS: TestCrossSlotFailsOnMiniredis") {
		t.Fatalf("the guard test of docs/guards.md: exit %d\n%s%s", code, stdout, stderr)
	}
}

// otherGuardsTest is what a user of the other clients' guards writes after
// the table of docs/guards.md, in a scratch module: a cross-slot MGET through each
// guard fails on miniredis and, with CROSSSLOT_REDIS_PLAIN_ADDR, on a plain
// server.
const otherGuardsTest = `package shop

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/gomodule/redigo/redis"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"

	"github.com/crossslot/crossslot/guard/redigoguard"
	"github.com/crossslot/crossslot/guard/rueidisguard"
	"github.com/crossslot/crossslot/guard/valkeyguard"
)

func servers(t *testing.T) []string {
	addrs := []string{miniredis.RunT(t).Addr()}
	if a := os.Getenv("CROSSSLOT_REDIS_PLAIN_ADDR"); a != "" {
		addrs = append(addrs, a)
	}
	return addrs
}

func refused(t *testing.T, who string, err error) {
	if err == nil || !strings.HasPrefix(err.Error(), "CROSSSLOT") {
		t.Errorf("%s: MGET across slots: %v, want CROSSSLOT", who, err)
	}
}

func TestOtherGuards(t *testing.T) {
	ctx := context.Background()
	for _, addr := range servers(t) {
		ru, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, DisableCache: true, ForceSingleClient: true})
		if err != nil {
			t.Fatal(err)
		}
		ru = rueidisguard.New(ru, rueidisguard.Options{})
		refused(t, "rueidis on "+addr, ru.Do(ctx, ru.B().Mget().Key("user:1:a", "user:2:a").Build()).Error())
		vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: []string{addr}, DisableCache: true, ForceSingleClient: true})
		if err != nil {
			t.Fatal(err)
		}
		vk = valkeyguard.New(vk, valkeyguard.Options{})
		refused(t, "valkey-go on "+addr, vk.Do(ctx, vk.B().Mget().Key("user:1:a", "user:2:a").Build()).Error())
		pool := &redis.Pool{Dial: redigoguard.Dial(redigoguard.Options{}, func() (redis.Conn, error) { return redis.Dial("tcp", addr) })}
		c := pool.Get()
		_, err = c.Do("MGET", "user:1:a", "user:2:a")
		refused(t, "redigo on "+addr, err)
		c.Close()
	}
}
`

// TestReadmeOtherGuards installs each other client's guard as docs/guards.md
// says (its module and path in the install lines) in a scratch module, and
// runs otherGuardsTest there.
func TestReadmeOtherGuards(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := scratchModule(t, "shop_test.go", otherGuardsTest)
	env := fixtureEnv()
	install := readmeRecipe(t, "guard-install")
	guards := []string{"guard/rueidisguard", "guard/valkeyguard", "guard/redigoguard"}
	for i, guard := range guards {
		script := strings.ReplaceAll(install, "crossslot/guard", "crossslot/"+guard)
		script = strings.ReplaceAll(script, "/path/to/crossslot", root)
		if i < len(guards)-1 {
			// The test imports all three: tidy once every replace is in.
			script = strings.ReplaceAll(script, "go mod tidy", "")
		}
		if stdout, stderr, code := runIn(t, dir, env, "bash", "-e", "-c", script); code != 0 {
			t.Fatalf("the install lines for %s: exit %d\n%s%s", guard, code, stdout, stderr)
		}
	}
	stdout, stderr, code := runIn(t, dir, env, "go", "test", "-count=1", "-v", "./...")
	if code != 0 || !strings.Contains(stdout, "--- PASS: TestOtherGuards") {
		t.Fatalf("the other guards' test: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestReadmeGuardWorkspace runs the workspace lines of docs/guards.md in a
// scratch module that uses the four guards (that page's go-redis test and the
// other guards' test): no replace, no require of a guard, and the tests pass.
func TestReadmeGuardWorkspace(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	root := repoRoot(t)
	dir := scratchModule(t, "shop_test.go", otherGuardsTest)
	if err := os.WriteFile(filepath.Join(dir, "guard_test.go"), []byte(readmeRecipe(t, "guard-test")), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string // a workspace of its own: not GOWORK=off, and no -mod flag, which workspaces refuse
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOWORK=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	script := strings.ReplaceAll(readmeRecipe(t, "guard-workspace"), "/path/to/crossslot", root) + "go get github.com/alicebob/miniredis/v2\n"
	if stdout, stderr, code := runIn(t, dir, env, "bash", "-e", "-c", script); code != 0 {
		t.Fatalf("the workspace lines: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || strings.Contains(string(b), "crossslot") {
		t.Errorf("go.mod names crossslot after the workspace lines: %s %v", b, err)
	}
	stdout, stderr, code := runIn(t, dir, env, "go", "test", "-count=1", "-v", "./...")
	if code != 0 || !strings.Contains(stdout, "--- PASS: TestOtherGuards") || !strings.Contains(stdout, "--- PASS: TestCrossSlotFailsOnMiniredis") {
		t.Fatalf("the guards' tests in a workspace: exit %d\n%s%s", code, stdout, stderr)
	}
}

// repoRoot is this checkout's root, which the recipes' /path/to/crossslot
// stands for.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}
