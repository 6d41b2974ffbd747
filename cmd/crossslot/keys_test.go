package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// keysGolden pins `crossslot keys -f json` on the bundled example; after a
// change that is meant, CROSSSLOT_UPDATE_GOLDEN=1 rewrites it.
const keysGolden = "../../testdata/keys/example.json"

// TestKeysOnExample: the key families of the example, pinned whole, and a
// few read by hand: a tag of one value per entity, keys of one constant
// tag, two untagged keys of one MGet on different slots (the finding), a
// key with an empty tag.
func TestKeysOnExample(t *testing.T) {
	stdout, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-f", "json", "./...")
	if code != 0 {
		t.Fatalf("crossslot keys: exit %d\n%s", code, stderr)
	}
	if os.Getenv("CROSSSLOT_UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(keysGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(keysGolden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(keysGolden)
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(want) {
		t.Errorf("crossslot keys -f json differs from %s (CROSSSLOT_UPDATE_GOLDEN=1 rewrites it after a meant change):\n%s", keysGolden, stdout)
	}
	var r keysReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != keysSchema {
		t.Errorf("schema %q, want %q", r.Schema, keysSchema)
	}
	byTemplate := map[string]*keyFamily{}
	for _, f := range r.Families {
		byTemplate[f.Template] = f
	}
	for template, check := range map[string]func(f *keyFamily) bool{
		"user:{<id>}:a": func(f *keyFamily) bool {
			return f.TagKind == "value" && f.Group == "{<id>}" && f.Slot == nil && f.With["user:{<id>}:b"] == "one"
		},
		"user:{1}:a": func(f *keyFamily) bool {
			return f.TagKind == "constant" && f.Group == "{1}" && f.Slot != nil && *f.Slot == 9842 && f.With["user:{1}:b"] == "one"
		},
		"user:1:a": func(f *keyFamily) bool {
			return f.TagKind == "none" && f.Slot != nil && *f.Slot == 323 && f.With["user:2:a"] == "different" &&
				len(f.Uses) == 1 && f.Uses[0] == "MGet main.go:24:17" && f.Built[0] == "main.go:24:23"
		},
		"user:{}:profile": func(f *keyFamily) bool { return f.TagKind == "empty" && f.Group == "" },
		"<key>:archived":  func(f *keyFamily) bool { return f.TagKind == "unknown" && f.Built[0] == "store/store.go:27:30" },
	} {
		if f := byTemplate[template]; f == nil || !check(f) {
			t.Errorf("family %s: %+v", template, f)
		}
	}
}

// TestKeysSlotAndKey: -slot N lists the families that can land on slot N
// (of that slot, or of a slot that depends on a value); -key TEXT those a
// concrete key matches; bad input exits as the standalone command does.
func TestKeysSlotAndKey(t *testing.T) {
	stdout, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-slot", "323", "./...")
	if code != 0 || !strings.Contains(stdout, "  user:1:a (slot 323)\n") || strings.Contains(stdout, "  user:2:a (slot") ||
		!strings.Contains(stdout, "  user:{<id>}:a (slot depends on its values)\n") {
		t.Errorf("keys -slot 323: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-key", "user:{42}:a", "./...")
	if code != 0 || !strings.Contains(stdout, `key families that "user:{42}:a" (slot 8000) matches:`) ||
		!strings.Contains(stdout, "  user:{<id>}:a (") || strings.Contains(stdout, "  user:{1}:a (slot") {
		t.Errorf("keys -key user:{42}:a: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"keys", "-slot", "16384", "./..."}, exitUsage, "a slot is a number from 0 to 16383"},
		{[]string{"keys", "-f", "yaml", "./..."}, exitUsage, "the formats are text, md, json and html"},
		{[]string{"keys", "-nosuchflag"}, exitUsage, "flag provided but not defined"},
		{[]string{"keys", "./nothing/..."}, exitNotAnalyzed, "could not be analyzed"},
	} {
		_, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s", tc.args, code, tc.code, tc.want, stderr)
		}
	}
	// A package that does not type-check: the standalone command's exit 3,
	// with the compiler's message.
	broken := cmdtest.CopyDir(t, exampleDir)
	if err := os.WriteFile(filepath.Join(broken, "broken.go"), []byte("package main\n\nvar x int = \"not an int\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runIn(t, broken, fixtureEnv(), crossslotBin, "keys", "./..."); code != exitNotAnalyzed || !strings.Contains(stderr, "broken.go:3") {
		t.Errorf("keys on a package that does not type-check: exit %d, want %d naming broken.go:3:\n%s", code, exitNotAnalyzed, stderr)
	}
}

// TestKeysMarkdown: -f md is a table per co-location group, then the
// untagged families, with the counts first.
func TestKeysMarkdown(t *testing.T) {
	stdout, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-f", "md", "./...")
	if code != 0 {
		t.Fatalf("keys -f md: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"## Key families\n\n67 key families: ",
		// one builder's keys are one family, whatever the calls' arguments,
		// and two builders of one template are one family
		"| `user:{<id>}:profile` (profileKey (main.go:21), keys.Profile (keys/keys.go:18)) | 1716 | main.go:76:48, main.go:124:23 | Eval main.go:76:17, MGet main.go:124:17 |",
		"| `item:<id>:price` (itemKey (main.go:127)) | depends on its values | main.go:130:23, main.go:130:35 | MGet main.go:130:17 | `item:<id>:price` (different slots, as the crossslot check finds) |\n",
		"\n### Group `{<id>}`\n\n| family | slot | written at | sent by | sent with |\n|---|---|---|---|---|\n| `user:{<id>}:a` | depends on its values | main.go:97:23 | MGet main.go:97:17 | `user:{<id>}:b` (one slot) |\n",
		"\n### No hash tag\n",
		"| `user:1:a` | 323 | main.go:24:23 | MGet main.go:24:17 | `user:2:a` (different slots, as the crossslot check finds) |\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("keys -f md lacks %q:\n%s", want, stdout)
		}
	}
}

// TestSideCommandsReadTheWarmCache: after a plain run, `crossslot keys`,
// `keys -f html` and `readiness` analyze nothing again (the analysis cache
// gains no entry), and the coverage and inventory flags of a plain run
// write their files from a warm cache too.
func TestSideCommandsReadTheWarmCache(t *testing.T) {
	cache := t.TempDir()
	env := append(fixtureEnv(), "STATICCHECK_CACHE="+cache)
	if _, stderr, code := cmdtest.Run(t, exampleDir, env, crossslotBin, "./..."); code != exitFindings {
		t.Fatalf("crossslot ./...: exit %d\n%s", code, stderr)
	}
	entries := func() int {
		n := 0
		filepath.WalkDir(cache, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	warm := entries()
	files := t.TempDir()
	for _, args := range [][]string{
		{"keys", "./..."},
		{"keys", "-f", "html", "./..."},
		// readiness judges single-node clients as a cluster's by default, a
		// setting of its own; with the plain run's it reads the same cache
		{"readiness", "-include-single-node=false", "./..."},
		{"-crossslot.coverage=" + filepath.Join(files, "c.jsonl"), "-crossslot.inventory=" + filepath.Join(files, "i.jsonl"), "./..."},
	} {
		stdout, stderr, code := cmdtest.Run(t, exampleDir, env, crossslotBin, args...)
		if code != 0 && code != exitFindings || stdout == "" {
			t.Fatalf("crossslot %v: exit %d\n%s", args, code, stderr)
		}
		if n := entries(); n != warm {
			t.Errorf("crossslot %v on a warm cache: the cache went from %d to %d entries (analyzed again)", args, warm, n)
		}
	}
	for _, f := range []string{"c.jsonl", "i.jsonl"} {
		if data, err := os.ReadFile(filepath.Join(files, f)); err != nil || len(data) == 0 {
			t.Errorf("%s from a warm cache: %v, %d bytes", f, err, len(data))
		}
	}
}

// TestKeysScriptKeys: a key a script's Lua builds from its declared keys
// (KEYS[1] .. ':reserved') is a family of the map, written by the script,
// sent with the declared key.
func TestKeysScriptKeys(t *testing.T) {
	src := "package main\n\nimport (\n\t\"context\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\n" +
		"var reserve = redis.NewScript(`\nlocal n = redis.call('DECR', KEYS[1])\nredis.call('SADD', KEYS[1] .. ':reserved', ARGV[1])\nreturn n\n`)\n\n" +
		"func hold(ctx context.Context, rdb *redis.ClusterClient, sku string) error {\n" +
		"\treturn reserve.Run(ctx, rdb, []string{\"stock:{\" + sku + \"}\"}, \"u1\").Err()\n}\n\nfunc main() {}\n"
	r, stdout := keysJSON(t, keysModule(t, src))
	for _, f := range r.Families {
		if f.Template == "stock:{<sku>}:reserved" {
			if len(f.Built) != 1 || !strings.HasPrefix(f.Built[0], `the script's SADD KEYS[1] .. ":reserved" (Run main.go:`) || f.With["stock:{<sku>}"] != "one" {
				t.Errorf("the script's key: %+v", f)
			}
			return
		}
	}
	t.Errorf("no family for the script's key stock:{<sku>}:reserved:\n%s", stdout)
}

// keysModule writes a module of one main.go, src, that requires the real
// go-redis as the example does, and returns its directory.
func keysModule(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(exampleDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// keysJSON runs crossslot keys -f json on dir's packages and reads it.
func keysJSON(t *testing.T, dir string, flags ...string) (keysReport, string) {
	t.Helper()
	stdout, stderr, code := runIn(t, dir, fixtureEnv(), crossslotBin, append(append([]string{"keys", "-f", "json"}, flags...), "./...")...)
	if code != 0 {
		t.Fatalf("keys %v: exit %d\n%s", flags, code, stderr)
	}
	var r keysReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	return r, stdout
}

// familiesByTemplate are a report's families by their templates.
func familiesByTemplate(r keysReport) map[string]*keyFamily {
	out := map[string]*keyFamily{}
	for _, f := range r.Families {
		out[f.Template] = f
	}
	return out
}

// transferSrc writes one account's keys from two variables, inline and
// through a key builder, as a transfer does.
const transferSrc = `package main

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func acctKey(id string) string { return "acct:" + id }

func sessionKey(token string) string { return "session:" + token }

func transfer(ctx context.Context, rdb *redis.ClusterClient, from, to string) {
	rdb.Get(ctx, "acct:"+from)
	rdb.Get(ctx, "acct:"+to)
	rdb.MGet(ctx, acctKey(from), acctKey(to))
	rdb.Get(ctx, "user:{"+from+"}:a")
	rdb.Get(ctx, "user:{"+to+"}:a")
	rdb.Get(ctx, "acct:"+from+":history")
	rdb.Get(ctx, "bal:"+from)
	rdb.Get(ctx, sessionKey(from))
}

func main() {}
`

// TestKeysFamilyIsTheTemplate: keys of one template are one family,
// whatever the variables its values come from are called ("acct:"+from,
// "acct:"+to, acctKey(id)): named acct:<…> where the names differ, sent
// with itself. Near-misses: a template with more text (acct:<from>:history)
// is a family of its own, a family of one name keeps it (bal:<from>), and a
// builder's family keeps its template's tag kind (session:<token>).
func TestKeysFamilyIsTheTemplate(t *testing.T) {
	r, stdout := keysJSON(t, keysModule(t, transferSrc))
	families := familiesByTemplate(r)
	acct := families["acct:<…>"]
	if acct == nil || len(acct.Built) != 4 || len(acct.Uses) != 3 || acct.With["acct:<…>"] != "different" || !strings.HasPrefix(acct.Builder, "acctKey (main.go:9)") {
		t.Errorf("family acct:<…>: %+v\n%s", acct, stdout)
	}
	user := families["user:{<…>}:a"]
	if user == nil || user.TagKind != "value" || user.Tag != "<…>" || user.Group != "{<…>}" || len(user.Built) != 2 {
		t.Errorf("family user:{<…>}:a: %+v\n%s", user, stdout)
	}
	for _, name := range []string{"acct:<from>:history", "bal:<from>"} {
		if f := families[name]; f == nil || len(f.Built) != 1 || f.TagKind != "unknown" {
			t.Errorf("family %s: %+v\n%s", name, f, stdout)
		}
	}
	// a builder's family is read from its template: no brace in it
	if f := families["session:<token>"]; f == nil || f.TagKind != "none" {
		t.Errorf("family session:<token>: %+v\n%s", f, stdout)
	}
	if len(r.Families) != 5 {
		t.Errorf("%d families, want acct:<…>, user:{<…>}:a, acct:<from>:history, bal:<from> and session:<token>:\n%s", len(r.Families), stdout)
	}
}

// TestFamilyShapeAndName: the templates of one shape name the same keys;
// a family's name keeps each value's name where its templates agree.
func TestFamilyShapeAndName(t *testing.T) {
	for _, c := range []struct {
		templates []string
		name      string
	}{
		{[]string{"acct:<from>", "acct:<to>"}, "acct:<…>"},
		{[]string{"user:{<id>}:<field>", "user:{<id>}:<name>", "user:{<id>}:<field>"}, "user:{<id>}:<…>"},
		{[]string{"a:<x><y>:b", "a:<z>:b"}, "a:<…>:b"},
		{[]string{"session:<token>"}, "session:<token>"},
	} {
		for _, tpl := range c.templates[1:] {
			if familyShape(tpl) != familyShape(c.templates[0]) {
				t.Errorf("%q and %q are of two shapes: %q, %q", c.templates[0], tpl, familyShape(c.templates[0]), familyShape(tpl))
			}
		}
		if got := familyName(c.templates); got != c.name {
			t.Errorf("familyName(%q) = %q, want %q", c.templates, got, c.name)
		}
	}
	for _, pair := range [][2]string{{"acct:<id>", "acct:<id>:history"}, {"user:{<id>}:a", "user:<id>:a"}, {"rate:{1}", "rate:{<id>}"}} {
		if familyShape(pair[0]) == familyShape(pair[1]) {
			t.Errorf("%q and %q are of one shape", pair[0], pair[1])
		}
	}
}

// TestKeysBuilderConstantCalls: a key builder's calls with a constant
// argument, through a variable too, are uses of its family, not families
// of their own (rate:{1} beside rate:{<id>}); a literal of its shape is.
func TestKeysBuilderConstantCalls(t *testing.T) {
	src := `package main

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func rateKey(id int) string { return fmt.Sprintf("rate:{%d}", id) }

var global = rateKey(0)

func limit(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.Incr(ctx, rateKey(id))
	k := rateKey(1)
	rdb.Incr(ctx, k)
	rdb.Incr(ctx, global)
	rdb.Incr(ctx, "rate:{2}")
}

func main() {}
`
	r, stdout := keysJSON(t, keysModule(t, src))
	families := familiesByTemplate(r)
	if f := families["rate:{<id>}"]; f == nil || len(f.Uses) != 3 || !strings.HasPrefix(f.Builder, "rateKey (main.go:10)") {
		t.Errorf("family rate:{<id>}: %+v\n%s", f, stdout)
	}
	if f := families["rate:{2}"]; f == nil || f.Builder != "" || len(r.Families) != 2 {
		t.Errorf("%d families, want rate:{<id>} and the literal's rate:{2}:\n%s", len(r.Families), stdout)
	}
}

// TestKeysKeyUnderOldName: -key with a key under a family's old name (its
// template without the tag's braces, or a -live-old name) says whose old
// name it is and lists that family, as -live counts such a key; a key of
// the family itself, or of no family, is under no old name.
func TestKeysKeyUnderOldName(t *testing.T) {
	stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-key", "user:205:profile", "./shop")
	if code != 0 || !strings.Contains(stdout, "  under the old name user:<id>:profile of user:{<id>}:profile (its template\n    without the tag's braces, before the code tagged it): migrate or delete it\n") ||
		!strings.Contains(stdout, "\n  user:{<id>}:profile (slot depends on its values)\n") || strings.Contains(stdout, "\n  user:{<id>}:settings (") {
		t.Errorf("keys -key user:205:profile: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-f", "json", "-key", "user:205:profile", "./shop")
	var r keysReport
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || r.OldName == nil ||
		*r.OldName != (keyOldName{Key: "user:205:profile", Template: "user:<id>:profile", Family: "user:{<id>}:profile", Untagged: true}) ||
		len(r.Families) != 1 || r.Families[0].Template != "user:{<id>}:profile" {
		t.Errorf("keys -f json -key user:205:profile: exit %d, %v, old name %+v\n%s%s", code, err, r.OldName, stdout, stderr)
	}
	stdout, stderr, code = runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-key", "legacy:cache:1", "-live-old", "legacy:cache:<n>=session:<token>", "./shop")
	if code != 0 || !strings.Contains(stdout, "under the old name legacy:cache:<n> of session:<token> (the name -live-old\n    gives it)") {
		t.Errorf("keys -key legacy:cache:1 -live-old: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, key := range []string{"user:{205}:profile", "user:205:profile:x", "othersvc:job:1"} {
		stdout, stderr, code := runIn(t, liveKeysDir, fixtureEnv(), crossslotBin, "keys", "-key", key, "./shop")
		if code != 0 || strings.Contains(stdout, "old name") {
			t.Errorf("keys -key %s: exit %d\n%s%s", key, code, stdout, stderr)
		}
	}
}

// TestUnderOldName: a key goes to a family's old name only when no
// family's template matches it, as -live counts it.
func TestUnderOldName(t *testing.T) {
	families := []*keyFamily{{Template: "user:{<id>}:profile"}, {Template: "order:{<user>}:<n>"}}
	if o := underOldName(families, nil, "order:u1:3"); o == nil || o.Template != "order:<user>:<n>" || o.Family != "order:{<user>}:<n>" || !o.Untagged {
		t.Errorf("order:u1:3: %+v", o)
	}
	// the code builds user:<id>:profile too: a key of that family
	families = append(families, &keyFamily{Template: "user:<id>:profile"})
	if o := underOldName(families, nil, "user:7:profile"); o != nil {
		t.Errorf("user:7:profile, a key of family user:<id>:profile, under old name %+v", o)
	}
}
