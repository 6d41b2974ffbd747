package analyzer_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
)

// testdata is the repository's shared testdata, where go-redis is stubbed at
// its real import path.
func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestAnalyzer covers every category and the silent near-misses; its
// singleNode function checks that *redis.Client and *redis.Conn are skipped
// by default.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "a")
}

func TestIncludeSingleNode(t *testing.T) {
	a := analyzer.New(&analyzer.Config{IncludeSingleNode: true})
	analysistest.Run(t, testdata(t), a, "singlenode", "garyburdcalls")
}

func TestDocFeedsAnalyzerDoc(t *testing.T) {
	doc := analyzer.Analyzer.Doc
	if !strings.HasPrefix(doc, "report multi-key Redis commands whose keys are on different hash slots") {
		t.Errorf("Doc starts %q", doc[:60])
	}
	for _, category := range []string{"crossslot", "emptytag", "doubletag", "unclosedtag"} {
		if !strings.Contains(doc, "- "+category+":") {
			t.Errorf("Doc does not document category %s", category)
		}
	}
}

// TestCoLocateFix applies the suggested fixes and compares with
// fixes.go.golden; the noFix function pins where no fix is offered.
func TestCoLocateFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), analyzer.Analyzer, "fixes")
}

// An example is a line of code with the diagnostic it must get ("" for none).
// An example is a call and the diagnostic it wants, after the lines of its
// block that set it up (run in a block of their own).
type example struct {
	code, want string
	setup      []string
}

// runExamples runs examples, each a call on rdb *redis.ClusterClient with
// two int values a and b and strings acct, ch and token at hand, through the analyzer in
// strict mode (known keys are never unprovable, so only the strict examples
// get its reports).
func runExamples(t *testing.T, examples []example) {
	t.Helper()
	stub, err := os.ReadFile(filepath.Join(testdata(t), "src/github.com/redis/go-redis/v9/redis.go"))
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	for _, ex := range examples {
		if ex.setup != nil {
			body.WriteString("\t{\n\t" + strings.Join(ex.setup, "\n\t") + "\n")
		}
		body.WriteString("\t" + ex.code)
		if ex.want != "" {
			body.WriteString(" // want `^" + regexp.QuoteMeta(ex.want) + "$`")
		}
		body.WriteString("\n")
		if ex.setup != nil {
			body.WriteString("\t}\n")
		}
	}
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, "src", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("github.com/redis/go-redis/v9/redis.go", string(stub))
	write("examples/examples.go", `package examples

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

var _ = fmt.Sprint

// lookup stands for a value the code reads at run time.
var lookup func(int) string

func examples(ctx context.Context, rdb *redis.ClusterClient, a, b int, acct, ch, token string) {
`+body.String()+"}\n")
	analysistest.Run(t, dir, analyzer.New(&analyzer.Config{Strict: true, HotTags: true}), "examples")
}

// TestDocExamples runs every example of doc.go through the analyzer, so the
// documentation (and -explain, -help) cannot drift from what the analyzer
// says: an example whose trailing comment is a diagnostic must get exactly
// that diagnostic, one whose comment starts "after the fix" must get none.
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var examples []example
	var setup []string // the lines of an example's block before its call
	for _, line := range strings.Split(string(src), "\n") {
		code, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			setup = nil
			continue
		}
		if !strings.HasPrefix(code, "rdb.") {
			setup = append(setup, code)
			continue
		}
		code, comment, ok := strings.Cut(code, " // ")
		if !ok {
			t.Fatalf("example without a trailing comment: %s", line)
		}
		if strings.HasPrefix(comment, "after the fix") {
			comment = ""
		}
		examples = append(examples, example{code: code, want: comment, setup: setup})
		setup = nil
	}
	if len(examples) < 9 {
		t.Fatalf("found %d examples in doc.go, want at least 9", len(examples))
	}
	runExamples(t, examples)
}

// TestReadmeExamples does the same for the table of checks in
// docs/checks.md, the README's page of checks, whose rows read
// "`code` → `message`".
func TestReadmeExamples(t *testing.T) {
	page, err := os.ReadFile("../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `(\\w+)` \\| .*? \\| (.*) \\| `(rdb(?: :=|\\.).*)` → `(.*)` \\|$").FindAllStringSubmatch(string(page), -1)
	var examples []example
	targets := map[string]string{}
	for _, r := range rows {
		targets[r[1]] = r[2]
		ex := example{code: r[3], want: r[4]}
		if made, call, ok := strings.Cut(ex.code, "; "); ok && strings.HasPrefix(made, "rdb := ") {
			ex.setup, ex.code = []string{made}, call // another client than the cluster's: rdb := redis.NewRing(...); rdb.MGet(...)
		}
		examples = append(examples, ex)
	}
	for _, c := range analyzer.Checks() {
		switch got, ok := targets[c.Name]; {
		case !ok:
			t.Errorf("docs/checks.md's table of checks has no example for %s", c.Name)
		case got != c.Targets:
			t.Errorf("docs/checks.md's table of checks says %s applies on %q; the analyzer's table of checks says %q", c.Name, got, c.Targets)
		}
	}
	runExamples(t, examples)
}

// TestChecks pins the per-category documentation the standalone command
// serves with -explain and -list-checks.
func TestChecks(t *testing.T) {
	checks := analyzer.Checks()
	var names []string
	for _, c := range checks {
		names = append(names, c.Name)
		if c.Title == "" || strings.Contains(c.Title, "\n") || strings.HasPrefix(c.Title, c.Name) {
			t.Errorf("check %s: title %q is not one line without the name", c.Name, c.Title)
		}
		if !strings.Contains(c.Text, "\trdb.") {
			t.Errorf("check %s: text has no example", c.Name)
		}
	}
	if got, want := strings.Join(names, ","), "crossslot,emptytag,doubletag,unclosedtag,unprovable,scriptslot,undeclaredkey,missingkey,hottag,database,sortpattern,onenode,shardedpubsub,keyspace,ringshard,directive"; got != want {
		t.Errorf("checks %s, want %s", got, want)
	}
}

// TestOddCode runs the analyzer, its recover off, over a corpus of unusual
// calls and keys: no panic, and only the provable lines reported.
func TestOddCode(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "odd")
}

// TestKeysThatTravel follows keys built in builders, package variables,
// fields and wrappers, in the package and across packages through facts.
func TestKeysThatTravel(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "travel/keys", "travel/store", "travel")
}

// TestTransactions compares keys across the commands of one transaction:
// TxPipelined, TxPipeline up to Exec, Watch, and helpers in another package;
// the message depends on the go-redis version the package imports.
func TestTransactions(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "tx/queue", "tx", "txv8", "txv9rc", "tx/helpers", "tx/helpersapp", "tx/lines", "tx/linesapp", "tx/domulti")
}

// TestVerdicts covers keys with unknown parts: proved for every value,
// near-sure, and silent; with -proofs-only the near-sure ones are silent.
func TestVerdicts(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "verdicts")
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{ProofsOnly: true}), "proofsonly")
}

// TestStrict covers the unprovable check of -strict.
func TestStrict(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{Strict: true}), "strict")
}

// TestTemplateFix applies the template fixes and compares with
// templatefix.go.golden; notFixed pins where none is offered.
func TestTemplateFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), analyzer.Analyzer, "templatefix")
}

// TestRedigo covers redigo's command lines, scripts and MULTI/EXEC, checked
// where the package reaches redisc and skipped where it does not.
func TestRedigo(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "redigocalls", "redigosingle")
}

// TestBuilders covers rueidis's and valkey-go's command builders, Lua
// scripts and DoMulti transactions.
func TestBuilders(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "rueidiscalls", "valkeycalls")
}

// TestScripts reads the Lua that calls send, in literals, constants and
// package variables, for go-redis, rueidis and redigo.
func TestScripts(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "scripts")
}

// TestAdvice pins the fix clauses for keys of two entities, which are
// never told to share one hash tag, beside keys of one entity, for every
// kind of command and every client; with the hottag check on, the layout
// the clauses describe (the entities tagged with a group they belong to)
// stays silent.
func TestAdvice(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{HotTags: true}), "advice")
}

// TestHotTags covers the opt-in hottag check.
func TestHotTags(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{HotTags: true}), "hottags")
}

// TestIgnoreDirective covers //crossslot:ignore: the check named, a reason
// required, the line and the next.
func TestIgnoreDirective(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "ignored")
}

// TestCoverage writes the coverage of a package with one batch of each kind
// and reads it back.
func TestCoverage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{Coverage: file}), "coverage")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, total, err := analyzer.SumCoverage(data)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("coverage %q: %v", data, err)
	}
	// One tag of one value ("{"+name+"}:a" and ":b") is proved, and
	// counted as assumed; each undecided batch is listed with its reason.
	sites := total.UndecidedAt
	total.UndecidedAt = nil
	want := `{"package":"total","commands":10,"transactions":1,"proved":4,"reported":3,"undecided":4,"reasons":{"a key from a parameter (checked at callers)":1,"a key list from input":1,"a value that may hold a brace or make the tag empty":1,"keys of different unknown values":1},"assumed":1}`
	if got, _ := json.Marshal(total); string(got) != want {
		t.Errorf("coverage\n%s\nwant\n%s", got, want)
	}
	var at []string
	for _, s := range sites {
		at = append(at, fmt.Sprintf("%s:%d:%d %s", filepath.Base(s.File), s.Line, s.Column, s.Reason))
	}
	wantAt := "coverage.go:18:2 a key list from input; coverage.go:23:2 a value that may hold a brace or make the tag empty; coverage.go:24:2 keys of different unknown values; coverage.go:35:2 a key from a parameter (checked at callers)"
	if got := strings.Join(at, "; "); got != wantAt {
		t.Errorf("undecided sites\n%s\nwant\n%s", got, wantAt)
	}
}

// TestInventoryBuilderConstants: a key builder's call with a constant
// argument, in place or through a variable given that one value (or a
// slice of such calls), is recorded as a use of the builder's family;
// the near-misses keep their own templates. Each `// family: F...` comment
// of the fixture lists the families of the keys the next line sends.
func TestInventoryBuilderConstants(t *testing.T) {
	got := map[int][]string{} // by line: the keys' families
	a := analyzer.New(&analyzer.Config{OnInventory: func(inv *analyzer.Inventory) {
		for _, u := range inv.Uses {
			for _, k := range u.Keys {
				family := k.Template
				if k.BuilderTemplate != "" {
					family = k.BuilderTemplate
				}
				parts := strings.Split(k.At, ":")
				line, _ := strconv.Atoi(parts[len(parts)-2])
				got[line] = append(got[line], family)
			}
		}
	}})
	analysistest.Run(t, testdata(t), a, "inventory")
	src, err := os.ReadFile(filepath.Join(testdata(t), "src/inventory/inventory.go"))
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for i, line := range strings.Split(string(src), "\n") {
		want, ok := strings.CutPrefix(strings.TrimSpace(line), "// family: ")
		if !ok {
			continue
		}
		marked++
		if families := strings.Join(got[i+2], " "); families != want {
			t.Errorf("inventory.go:%d: families %q, want %q", i+2, families, want)
		}
	}
	if marked == 0 {
		t.Fatal("the fixture marks no line with its families")
	}
}

// TestPanicIsToldCountedAndShownOnDemand: a panic of the analysis leaves
// the package unchecked without failing the build (no diagnostic, no
// error), is counted in the coverage report with its message and first
// frames, is printed with those on standard error, and with its whole
// stack only when CROSSSLOT_DEBUG is set.
func TestPanicIsToldCountedAndShownOnDemand(t *testing.T) {
	for _, debug := range []string{"", "1"} {
		t.Run("CROSSSLOT_DEBUG="+debug, func(t *testing.T) {
			t.Setenv("CROSSSLOT_DEBUG", debug)
			var log strings.Builder
			defer analyzer.PanicOn("coverage", &log)()
			file := filepath.Join(t.TempDir(), "coverage.jsonl")
			// The fixture's // want lines are not asserted here: the package
			// is not checked, so every result is inspected directly.
			results := analysistest.Run(&quietT{T: t}, testdata(t), analyzer.New(&analyzer.Config{Coverage: file}), "coverage")
			for _, r := range results {
				if r.Err != nil || len(r.Diagnostics) > 0 {
					t.Errorf("after a panic: error %v, %d diagnostics; want none", r.Err, len(r.Diagnostics))
				}
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, total, err := analyzer.SumCoverage(data)
			if err != nil || total.Panics != 1 {
				t.Fatalf("coverage %s: %d panics (%v), want 1", data, total.Panics, err)
			}
			if !strings.Contains(string(data), `"panic":"crossslot test: a bug on coverage"`) {
				t.Errorf("coverage %s does not name the panic", data)
			}
			if !strings.Contains(string(data), `"panic_at":["analyzer.run (analyzer.go:`) {
				t.Errorf("coverage %s does not say where the panic was", data)
			}
			shown := log.String()
			if debug == "" && (!strings.Contains(shown, "crossslot: internal error; package coverage is not checked: crossslot test: a bug on coverage\n\tat analyzer.run (analyzer.go:") ||
				strings.Contains(shown, "goroutine ") || !strings.Contains(shown, "CROSSSLOT_DEBUG=1")) {
				t.Errorf("without CROSSSLOT_DEBUG, want the panic and its first frames, no stack, got:\n%s", shown)
			}
			if debug != "" && (!strings.Contains(shown, "crossslot: internal error; package coverage is not checked: crossslot test: a bug on coverage") ||
				!strings.Contains(shown, "goroutine ") || !strings.Contains(shown, "analyzer.run(")) {
				t.Errorf("with CROSSSLOT_DEBUG=1, want the panic and its stack, got:\n%s", shown)
			}
		})
	}
}

// quietT lets analysistest run a fixture whose // want lines cannot hold,
// recording its complaints instead of failing.
type quietT struct {
	*testing.T
}

func (q *quietT) Errorf(format string, args ...any) { q.Logf("expected: "+format, args...) }

// TestPrecision pins what talks to one node through wrappers (across
// packages), fields, helpers that return a client or run a callback, and
// guards, and that tests are checked only on proved cluster clients; each
// silent shape has a reported twin.
func TestPrecision(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "precision/...")
}

// TestLuaExact pins how exactly scripts are read: make-and-append argument
// lists, computed KEYS indexes, the script's own functions, aliases of
// redis.call, and names read from data.
func TestLuaExact(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "luaexact")
}

// TestRuntimeValues pins keys made of run-time values across two packages:
// string ids after literal text, a fixed key beside a key holding a value,
// a field read twice; and their near-misses.
func TestRuntimeValues(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "runtimevalues/...")
}

// TestClusterReadiness pins what a cluster refuses or does differently
// besides CROSSSLOT: databases, SORT patterns, keyspace-wide commands on one
// node, sharded channels; each with its near-misses.
func TestClusterReadiness(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "readiness", "readinessclients", "readinesscallers", "forwards/store", "forwards/app", "forwards/dbs", "forwards/dbsapp")
}

// TestRing pins the ringshard check: go-redis's Ring, which shards keys by
// hash tag over plain servers, and its near-misses.
func TestRing(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "ring")
}

// TestClusterReadinessSingleNode: with -include-single-node the same checks
// say what breaks when single-node clients become cluster clients.
func TestClusterReadinessSingleNode(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{IncludeSingleNode: true, Coverage: file}), "readinesssingle/...")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, total, err := analyzer.SumCoverage(data)
	if err != nil {
		t.Fatal(err)
	}
	// Databases the code does not fix (options from configuration) are
	// sites, undecided: four in databaseOptions, and in urls a URL from
	// configuration and options changed after parsing; urls reports three.
	if got, want := total.Readiness["database"], (analyzer.Tally{Sites: 17, Fine: 1, Reported: 10, Undecided: 6}); got != want {
		t.Errorf("database sites %+v, want %+v", got, want)
	}
}

// TestValueModel pins what a key holds however the code holds it: types,
// fields, collections (testdata/src/values).
func TestValueModel(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "values/...")
}

// TestSameValuesOnly: the switch leaves out keys of different values and
// keys with a leading value, and nothing else.
func TestSameValuesOnly(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{SameValuesOnly: true}), "samevaluesonly")
	var missed errorCount
	analysistest.Run(&missed, testdata(t), analyzer.Analyzer, "samevaluesonly")
	if missed.n != 3 {
		t.Errorf("by default, %d complaints about samevaluesonly, want the 3 findings it leaves out", missed.n)
	}
}

// errorCount records analysistest's complaints instead of failing.
type errorCount struct{ n int }

func (e *errorCount) Errorf(format string, args ...any) { e.n++ }

// remedyClause is how a finding's last clause starts: what to do, in the
// imperative (see remedy.go and each check's unit).
var remedyClause = regexp.MustCompile(`; (send one call per slot|run one transaction per slot|subscribe once per slot|` +
	`make .+ their hash tag, as in "|make .+ the hash tag of .+ too, as in "|give them the hash tag \{|give both keys one hash tag|` +
	`read each key|copy each HyperLogLog|run the script once per slot|set each slot's keys|wait on each slot's keys|run the command per slot|send one command per key|` +
	`give the watched keys and the (callback|batch)'s keys one hash tag|give the script's keys the declared keys' hash tag|` +
	`give the keys one hash tag of one value|give keys that belong together one hash tag|co-locate the keys under an owner|move the data in the client|group the keys by slot|assign .+ on every path|if the write must be atomic|` +
	`put the entity's id between the braces|keep one pair of braces|close the tag with '\}'|put .+ in the tag instead|` +
	`pass the key in|tell data apart by key prefix|sort in the client|run it on (each|a connection to each)|` +
	`keep the keys it looks for in a set|run it from the client on each master|use one of those|load it with|run it with|` +
	`walk every slot with|send it outside the atomic batch|begin the pattern with the sorted key's hash tag|read the sorted elements without GET #|on .+, iterate with CLUSTERSCAN|` +
	`crossslot -list-checks lists them|write it as //crossslot:ignore)[^;]*$`)

// TestEveryFindingSaysWhatToDo runs every check, opt-in ones included, over
// every fixture package and checks that each finding ends with its fix.
func TestEveryFindingSaysWhatToDo(t *testing.T) {
	all := &analyzer.Config{Strict: true, HotTags: true, IncludeSingleNode: true}
	pkgs := fixturePackages(t)
	seen := map[string]int{}
	for _, r := range analysistest.Run(&errorCount{}, testdata(t), analyzer.New(all), pkgs...) {
		for _, d := range r.Diagnostics {
			seen[d.Category]++
			if !remedyClause.MatchString(d.Message) {
				t.Errorf("%s: %s finding does not end with what to do: %s", r.Pass.Fset.Position(d.Pos), d.Category, d.Message)
			}
		}
	}
	for _, c := range analyzer.Checks() {
		if seen[c.Name] == 0 {
			t.Errorf("no finding of check %s in the fixtures", c.Name)
		}
	}
	t.Logf("findings by check, each ending with what to do: %v", seen)
}

// TestFixesSayTheyRenameKeys: every suggested fix renames keys, so its
// title says so; the builder fix names the builders it edits.
func TestFixesSayTheyRenameKeys(t *testing.T) {
	var titles []string
	for _, r := range analysistest.Run(&errorCount{}, testdata(t), analyzer.Analyzer, "fixes", "templatefix") {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				titles = append(titles, f.Message)
				if !strings.HasSuffix(f.Message, "; this renames the keys, so migrate their stored data") {
					t.Errorf("fix %q does not say it renames the keys", f.Message)
				}
			}
		}
	}
	for _, want := range []string{"put the shared id in a hash tag in itemsKey;", "put the shared id in a hash tag in lines and sum;"} {
		if !slices.ContainsFunc(titles, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no fix titled %q...; got %q", want, titles)
		}
	}
}

// TestDocNamesFlagsAsTyped: the documentation (-explain, -help) names each
// analyzer flag as users type it, -crossslot.NAME, in every front end.
func TestDocNamesFlagsAsTyped(t *testing.T) {
	var names []string
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) { names = append(names, regexp.QuoteMeta(f.Name)) })
	bare := regexp.MustCompile(`(^|[^\w.-])-(` + strings.Join(names, "|") + `)\b`)
	texts := []string{analyzer.Analyzer.Doc}
	for _, c := range analyzer.Checks() {
		texts = append(texts, c.Title, c.Text)
	}
	for _, text := range texts {
		for _, m := range bare.FindAllString(text, -1) {
			t.Errorf("the documentation names %q; users type -crossslot.%s", strings.TrimSpace(m), strings.TrimLeft(strings.TrimSpace(m), "(-"))
		}
	}
}

// TestValkey9Target: with -crossslot.target=valkey9:16 the database check
// follows what a Valkey 9 cluster of 16 databases accepts.
func TestValkey9Target(t *testing.T) {
	cfg := &analyzer.Config{IncludeSingleNode: true}
	a := analyzer.New(cfg)
	if err := a.Flags.Set("target", "valkey9:16"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), a, "valkey9")
	for _, bad := range []string{"valkey9:0", "valkey10", "redis:2", "valkey9:x"} {
		if err := analyzer.New(&analyzer.Config{}).Flags.Set("target", bad); err == nil {
			t.Errorf("-crossslot.target=%s accepted", bad)
		}
	}
	var missed errorCount // the default target, Redis: every database other than 0 refused
	analysistest.Run(&missed, testdata(t), analyzer.New(&analyzer.Config{IncludeSingleNode: true}), "valkey9")
	if missed.n == 0 {
		t.Error("with the default target, the valkey9 fixture got the same findings")
	}
}

// TestOneServerByConstruction pins clients whose type could hold a cluster
// client but whose every value talks to one server (testdata/src/oneserver),
// each beside a twin that may be a cluster client.
func TestOneServerByConstruction(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "oneserver")
}

// TestGuardScope pins what a check of a client's kind decides (a type
// assertion or type switch, rueidis's and valkey-go's Mode();
// testdata/src/guardscope): the calls its branches dominate, judged as a
// cluster client's where it ruled one in and left out where it ruled one
// out; the calls of the same field in sibling methods, after the check or
// under a check of another value are judged as if it did not exist.
func TestGuardScope(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "guardscope")
}

// TestParameters pins keys built from a function's own parameters, judged
// where they are built in every check, and the whole keys its callers fill
// (testdata/src/params).
func TestParameters(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "params/...")
}

// TestClientSubmodules: modules under a client's path that only use it
// (rueidisprob) are checked like any user's code.
func TestClientSubmodules(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "github.com/redis/rueidis/rueidisprob")
}

// TestAdapters: a client's go-redis-compatible adapter is read through its
// own code (rueidiscompat, summarized like a module's wrappers), and calls
// through its interface run the type its constructor returns.
func TestAdapters(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "github.com/redis/rueidis/rueidiscompat", "github.com/valkey-io/valkey-go/valkeycompat", "adapters")
}

// TestGlide covers Valkey GLIDE's cluster client: refused multi-key
// commands, the ones its core splits per slot, its interfaces and its
// standalone client (testdata/src/glidecalls).
func TestGlide(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "glidecalls/...")
}

// TestTargets runs the same calls under each target that changes their
// verdict (testdata/src/targets): SORT patterns by release, GET "#", and
// the onenode fix on Valkey 9.1; and a package whose crossslot.conf gives
// its target, which a given flag overrides.
func TestTargets(t *testing.T) {
	for pkg, tg := range map[string]string{"latest": "", "redis70": "redis:7.0", "valkey80": "valkey:8.0", "valkey91": "valkey:9.1", "proxy": "azure-enterprise"} {
		a := analyzer.New(&analyzer.Config{})
		if tg != "" {
			if err := a.Flags.Set("target", tg); err != nil {
				t.Fatal(err)
			}
		}
		analysistest.Run(t, testdata(t), a, "targets/"+pkg)
	}
	analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{}), "targets/fromfile")
	var overridden errorCount
	a := analyzer.New(&analyzer.Config{})
	if err := a.Flags.Set("target", "redis:7.0"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(&overridden, testdata(t), a, "targets/fromfile")
	if overridden.n == 0 {
		t.Error("-crossslot.target=redis:7.0 did not override the package's crossslot.conf (valkey:8.0)")
	}
	var unproxied errorCount // the default target: a plain client is one server's, and nothing is reported
	for _, r := range analysistest.Run(&unproxied, testdata(t), analyzer.New(&analyzer.Config{}), "targets/proxy") {
		if len(r.Diagnostics) > 0 {
			t.Errorf("targets/proxy under the default target: %d findings on a plain client", len(r.Diagnostics))
		}
	}
}

// TestGlideTargets: GLIDE's SORT options follow the target as the other
// clients' do: under valkey:7.2 a pattern on the sorted key's slot is
// refused too.
func TestGlideTargets(t *testing.T) {
	a := analyzer.New(&analyzer.Config{})
	if err := a.Flags.Set("target", "valkey:7.2"); err != nil {
		t.Fatal(err)
	}
	var c collected
	for _, r := range analysistest.Run(&errorCount{}, testdata(t), a, "glidecalls") {
		for _, d := range r.Diagnostics {
			c.msgs = append(c.msgs, d.Message)
			for _, rel := range d.Related { // one SORT's patterns are one finding
				if m, ok := strings.CutPrefix(rel.Message, "the same bug: "); ok {
					c.msgs = append(c.msgs, m)
				}
			}
		}
	}
	if !c.has(`SORT BY "{s}w_*" reads keys by a pattern, which Valkey 7.2 refuses in cluster mode whatever the pattern`) ||
		!c.has(`SORT GET "#" reads keys by a pattern, which Valkey 7.2 refuses`) {
		t.Errorf("under valkey:7.2, GLIDE's tagged BY and GET # are not reported:\n%s", strings.Join(c.msgs, "\n"))
	}
}

type collected struct{ msgs []string }

func (c collected) has(prefix string) bool {
	for _, m := range c.msgs {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

// TestCycles: code whose reading recurses (String through a stripped
// conversion, mutual recursion, recursive types, a String formatting its
// own receiver, generics through methods) ends, and reports only what it
// reads in full.
func TestCycles(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "cycles")
}

// TestWorkBound: past the bound of a package's work its reading stops,
// what came before stands, nothing after is reported (late is the same bug
// as early), and the coverage says where the reading stopped. Without the
// bound, the whole package is read.
func TestWorkBound(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		defer analyzer.BoundWork(8, 1_000_000)()
		file := filepath.Join(t.TempDir(), "coverage.jsonl")
		analysistest.Run(t, testdata(t), analyzer.New(&analyzer.Config{Coverage: file}), "bounded")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		pkgs, _, err := analyzer.SumCoverage(data)
		if err != nil || len(pkgs) != 1 || !strings.HasPrefix(pkgs[0].Exhausted, "bounded.") {
			t.Fatalf("coverage %s (%v): want the package exhausted in one of its functions", data, err)
		}
		if pkgs[0].Reported != 1 {
			t.Errorf("%d reported, want 1 (early's)", pkgs[0].Reported)
		}
	})
	t.Run("steps", func(t *testing.T) {
		defer analyzer.BoundWork(600, 3)()
		results := analysistest.Run(&quietT{T: t}, testdata(t), analyzer.Analyzer, "bounded")
		for _, r := range results {
			if len(r.Diagnostics) > 0 {
				t.Errorf("with 3 steps: %d diagnostics, want none", len(r.Diagnostics))
			}
		}
	})
	t.Run("unbounded", func(t *testing.T) {
		results := analysistest.Run(&quietT{T: t}, testdata(t), analyzer.Analyzer, "bounded")
		n := 0
		for _, r := range results {
			n += len(r.Diagnostics)
		}
		if n != 3 {
			t.Errorf("%d diagnostics without a bound, want 3 (early, deep, late)", n)
		}
	})
}

// TestOneBugOneFinding: the onebug fixture's findings are one per bug (its
// want lines), each bug's other showings its related positions, counted.
func TestOneBugOneFinding(t *testing.T) {
	related := map[string]int{} // function of the finding's line: "the same bug" positions
	for _, r := range analysistest.Run(t, testdata(t), analyzer.Analyzer, "onebug") {
		for _, d := range r.Diagnostics {
			n := 0
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "the same bug: ") {
					n++
				}
			}
			related[strings.SplitN(d.Message, " ", 2)[0]] += n
		}
	}
	want := map[string]int{
		"Watch":       3, // transfer: the callback's Get and the transaction; reserve: the transaction
		"SUnionStore": 1, // the transaction
		"MGet":        1, // emptyTags: the other key's empty tag
		"Del":         1, // twoCommands: the transaction
		"Get":         0,
		"SORT":        1, // GET
		"TxPipelined": 0,
		"Set":         1, // sameKeyTwice: the Expire
		"Run":         1, // bump: the other call's undeclared key
	}
	for fn, n := range want {
		if related[fn] != n {
			t.Errorf("findings starting %q hold %d other showings of their bug, want %d (all: %v)", fn, related[fn], n, related)
		}
	}
}

// fixturePackages are every fixture package of testdata/src, with the
// packages below each (not the stubs of the clients, at their import
// paths).
func fixturePackages(t *testing.T) []string {
	dirs, err := os.ReadDir(filepath.Join(testdata(t), "src"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range dirs {
		if d.IsDir() && !strings.Contains(d.Name(), ".") {
			pkgs = append(pkgs, d.Name()+"/...")
		}
	}
	return pkgs
}
