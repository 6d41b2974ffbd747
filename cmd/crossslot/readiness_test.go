package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/clustertarget"
	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// readinessDir is a module, built against the real go-redis v9.23.0, rueidis
// v1.0.79, redigo v1.9.3 and redisc v1.4.0, whose
// calls a cluster refuses or runs differently besides CROSSSLOT.
const readinessDir = "../../testdata/readiness"

// TestReadinessOnRealClients: every bad* function is reported once, in one
// of the readiness checks' categories; good* ones are not.
func TestReadinessOnRealClients(t *testing.T) {
	found, names := findingsByFunc(t, readinessDir, "example.com/readiness", nil)
	categories := []string{"database", "sortpattern", "onenode", "shardedpubsub", "keyspace"}
	expectEachBadOnce(t, "readiness", names, found, 17, "one finding of a readiness check", func(fn string, d vetDiagnostic) bool {
		if fn == "badSplitMSetNX" {
			return d.Category == "crossslot" && strings.Contains(d.Message, "splits it by slot, so it does not fail but is not atomic; if the write must be atomic, make strconv.FormatUint(rand.Uint64(), 36) their hash tag")
		}
		return slices.Contains(categories, d.Category)
	})
}

// TestReadinessUndecidedClients: a client whose constructor does not say
// whether it reaches a cluster (go-redis's NewClient, rueidis's, redigo's
// Dial) with a database option is not reported by default, and is with
// -include-single-node, as the database check; on the cluster each fails
// (TestReadinessGroundTruth).
func TestReadinessUndecidedClients(t *testing.T) {
	found, names := findingsByFunc(t, readinessDir, "example.com/readiness", nil, "-crossslot.include-single-node")
	undecided := 0
	for _, fn := range names {
		if !strings.HasPrefix(fn, "undecided") {
			continue
		}
		undecided++
		if fs := found[fn]; len(fs) != 1 || fs[0].Category != "database" {
			t.Errorf("%s with -include-single-node: reported %v, want one database finding", fn, fs)
		}
	}
	if undecided < 3 {
		t.Fatalf("only %d undecided* scenarios", undecided)
	}
}

// TestReadinessGroundTruth runs the module on the three-master cluster:
// every reported call is refused or loses data as its message says (the
// scenario says so in its error), every other one succeeds.
func TestReadinessGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	sameTargetAsServer(t, readinessDir, addr)
	found, _ := findingsByFunc(t, readinessDir, "example.com/readiness", nil)
	runs := runScenarios(t, readinessDir, addr)
	// undecided* scenarios are not reported by default (see
	// TestReadinessUndecidedClients) and fail on the cluster: compared there.
	var decided []scenarioRun
	for _, r := range runs {
		if !strings.HasPrefix(r.name, "undecided") {
			decided = append(decided, r)
		} else if r.result != "error" {
			t.Errorf("%s: the cluster said %v, want it refused", r.name, r)
		}
	}
	ran := expectClusterAgrees(t, decided, found, func(r scenarioRun) bool {
		return r.result == "error"
	})
	t.Logf("%d calls on %s agree with the analyzer", ran, addr)
	if ran < 28 {
		t.Fatalf("only %d calls ran", ran)
	}
}

// TestReadinessSummary runs `crossslot readiness` on the module: its table
// counts each check's reported sites as go vet reports them when it judges
// single-node clients as a cluster's too, as readiness does, and lists each
// of them, in text and in Markdown.
func TestReadinessSummary(t *testing.T) {
	diags := vetModule(t, readinessDir, "example.com/readiness", "-crossslot.include-single-node")
	reported := map[string]int{}
	for _, d := range diags {
		reported[d.Category]++
	}
	env := cmdtest.ModuleEnv()
	text, stderr, code := runIn(t, readinessDir, env, crossslotBin, "readiness", "./...")
	if code != 0 {
		t.Fatalf("crossslot readiness: exit %d\n%s", code, stderr)
	}
	md, stderr, code := runIn(t, readinessDir, env, crossslotBin, "readiness", "-md", "./...")
	if code != 0 {
		t.Fatalf("crossslot readiness -md: exit %d\n%s", code, stderr)
	}
	if !strings.HasPrefix(text, "cluster readiness of example.com/readiness (1 package with Redis calls)") {
		t.Errorf("text report starts:\n%s", text)
	}
	// The key inventory's counts, as crossslot keys counts them.
	keysOut, _, _ := runIn(t, readinessDir, env, crossslotBin, "keys", "./...")
	counts := regexp.MustCompile(`\d+ key families: .*`).FindString(keysOut)
	if counts == "" || !strings.Contains(text, "\n"+counts+"\n") || !strings.Contains(md, "\n"+strings.ToUpper(counts[:1])+counts[1:]+" (`crossslot keys` lists them).\n") {
		t.Errorf("the readiness summary lacks the key inventory's counts %q:\n%s\n%s", counts, text, md)
	}
	for _, check := range readinessChecks() {
		row := regexp.MustCompile(`(?m)^\s*` + check + `\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$`).FindStringSubmatch(text)
		mdRow := regexp.MustCompile("(?m)^\\| `" + check + "` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$").FindStringSubmatch(md)
		if row == nil || mdRow == nil {
			t.Errorf("no row for %s:\n%s\n%s", check, text, md)
			continue
		}
		if !slices.Equal(row[1:], mdRow[1:]) {
			t.Errorf("%s: text row %v, Markdown row %v", check, row[1:], mdRow[1:])
		}
		n := func(s string) int { v, _ := strconv.Atoi(s); return v }
		sites, fine, rep, suppressed, undecided := n(row[1]), n(row[2]), n(row[3]), n(row[4]), n(row[5])
		if rep != reported[check] || sites != fine+rep+suppressed+undecided {
			t.Errorf("%s: sites %d fine %d reported %d suppressed %d undecided %d; go vet reported %d", check, sites, fine, rep, suppressed, undecided, reported[check])
		}
	}
	if reported["database"] == 0 || reported["onenode"] == 0 || reported["sortpattern"] == 0 || reported["shardedpubsub"] == 0 {
		t.Errorf("want every readiness check reported in the module, got %v", reported)
	}
	for _, d := range diags {
		line := lineOf(t, d.Posn)
		if !strings.Contains(text, fmt.Sprintf("main.go:%d:", line)+"") || !strings.Contains(md, fmt.Sprintf("- [ ] `main.go:%d:", line)) {
			t.Errorf("the reports do not list %s: %s", d.Posn, d.Message)
		}
	}
}

// TestReadinessListsEveryCheckAndFails: the summary lists every finding
// the standalone command reports (tags and scripts too, as rows of their
// own), and -fail makes findings exit 1, for CI to gate a migration on.
func TestReadinessListsEveryCheckAndFails(t *testing.T) {
	env := fixtureEnv()
	standalone := lintJSONIn(t, exampleDir, "./...")
	text, stderr, code := runIn(t, exampleDir, env, crossslotBin, "readiness", "-fail", "./...")
	if code != exitFindings {
		t.Errorf("readiness -fail with findings: exit %d, want %d\n%s", code, exitFindings, stderr)
	}
	if want := fmt.Sprintf("\nreported (%d):\n", len(standalone)); !strings.Contains(text, want) {
		t.Errorf("the standalone command reports %d findings; the summary lacks %q:\n%s", len(standalone), want, text)
	}
	for _, check := range []string{"emptytag", "doubletag", "unclosedtag"} {
		if !regexp.MustCompile(`(?m)^\s*` + check + `\s+-\s+-\s+1\s+0\s+-\s*$`).MatchString(text) {
			t.Errorf("no row for %s:\n%s", check, text)
		}
	}
	if _, _, code := runIn(t, exampleDir, env, crossslotBin, "readiness", "./..."); code != exitClean {
		t.Errorf("readiness without -fail: exit %d, want 0", code)
	}
	if _, stderr, code := runIn(t, exampleDir, env, crossslotBin, "readiness", "-fail", "./store"); code != exitClean {
		t.Errorf("readiness -fail with nothing reported: exit %d, want 0\n%s", code, stderr)
	}
}

// TestReadinessWithABrokenPackage: a package that does not type-check does
// not hide the others' summary; it is named after it, and the exit status
// says that not everything was analyzed.
func TestReadinessWithABrokenPackage(t *testing.T) {
	dir := cmdtest.CopyDir(t, exampleDir)
	if err := os.MkdirAll(filepath.Join(dir, "bad"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad", "bad.go"), []byte("package bad\n\nfunc f() int { return \"x\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runIn(t, dir, fixtureEnv(), crossslotBin, "readiness", "./...")
	if code != exitNotAnalyzed {
		t.Errorf("exit %d, want %d\n%s", code, exitNotAnalyzed, stderr)
	}
	for _, want := range []string{"cluster readiness of example.com/shop (2 packages with Redis calls)", "\nreported (23):\n",
		"\nnot analyzed (1), so not in the table above:\n", "bad/bad.go:3:23: cannot use \"x\""} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
}

// sameTargetAsServer checks that a module's crossslot.conf names the
// release line of the live server its calls are run on: the analyzer
// judges them by the rules of that release.
func sameTargetAsServer(t *testing.T, dir, addr string) {
	t.Helper()
	f, ok, err := clustertarget.Find(dir)
	if err != nil || !ok {
		t.Fatalf("%s: crossslot.conf: %v (found %v)", dir, err, ok)
	}
	live, err := clustertarget.Parse(redistest.ServerTarget(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	if f.Target.Server != live.Server || f.Target.Major != live.Major || f.Target.Minor != live.Minor {
		t.Fatalf("%s says target %s, and the server at %s is %s: make them agree", f.Path, f.Target, addr, live)
	}
}

// TestReadinessAssumptionAndUndecidedSites: keys that share one hash tag of
// one value, as the fixes advise, count as fine, with the assumption said
// once; every undecided site is listed with its reason, in both forms.
func TestReadinessAssumptionAndUndecidedSites(t *testing.T) {
	dir := readinessModule(t, []string{"os", "strings"}, `func main() {
	ctx, rdb, acct := context.Background(), redis.NewClusterClient(&redis.ClusterOptions{}), os.Args[1]
	rdb.MGet(ctx, "acct:{"+acct+"}:balance", "acct:{"+acct+"}:ledger")
	rdb.MGet(ctx, strings.Fields(os.Getenv("KEYS"))...)
}
`)
	env := cmdtest.ModuleEnv()
	text, stderr, code := runIn(t, dir, env, crossslotBin, "readiness", "./...")
	if code != 0 {
		t.Fatalf("crossslot readiness: exit %d\n%s", code, stderr)
	}
	md, stderr, code := runIn(t, dir, env, crossslotBin, "readiness", "-md", "./...")
	if code != 0 {
		t.Fatalf("crossslot readiness -md: exit %d\n%s", code, stderr)
	}
	if row := regexp.MustCompile(`(?m)^\s*crossslot\s+2\s+1\s+0\s+0\s+1\s*$`); !row.MatchString(text) {
		t.Errorf("want the crossslot row 2 sites, 1 fine, 0 reported, 1 undecided:\n%s", text)
	}
	assumption := "fine includes 1 site whose keys share one hash tag of one value"
	if !strings.Contains(text, "\n"+assumption) || !strings.Contains(md, "\nF"+assumption[1:]) {
		t.Errorf("the reports do not say the assumption once:\n%s\n%s", text, md)
	}
	if !strings.Contains(text, "\nundecided (1):\n  main.go:23:2: a key list from input (crossslot)\n") ||
		!strings.Contains(md, "**Undecided (1)**\n\n- `main.go:23:2` **crossslot**: a key list from input\n") {
		t.Errorf("the reports do not list the undecided site with its reason:\n%s\n%s", text, md)
	}
}

// TestReadinessJudgesSingleNodeAndListsEverything: a service on one server
// today (*redis.Client) has its findings in the summary without a flag,
// which says so; a suppressed finding is counted apart and listed with its
// directive's reason; every check's undecided site is listed with its
// reason; -f json gives one line a site, in a stable order; and
// -include-single-node=false is the plain run's selection.
func TestReadinessJudgesSingleNodeAndListsEverything(t *testing.T) {
	dir := readinessModule(t, []string{"os"}, `func main() {
	ctx, rdb := context.Background(), redis.NewClient(&redis.Options{Addr: os.Getenv("ADDR")})
	rdb.MGet(ctx, "user:1:a", "user:2:a")
	//lint:ignore crossslot one shard in this deployment
	rdb.Del(ctx, "cart:1", "orders:1")
	rdb.Keys(ctx, "user:*")
	rdb.Sort(ctx, "ids", &redis.Sort{By: os.Getenv("BY")})
}
`)
	env := cmdtest.ModuleEnv()
	text, stderr, code := runIn(t, dir, env, crossslotBin, "readiness", "./...")
	if code != exitClean {
		t.Fatalf("crossslot readiness: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"every client judged as a cluster client, single-node ones (*redis.Client, a redigo pool of one server, ...) included\n",
		"\nsuppressed (1):\n  main.go:23:25: Del keys \"cart:1\" (slot 1420) and \"orders:1\" (slot 12707)",
		"(crossslot; //lint:ignore crossslot one shard in this deployment)\n",
		"\nundecided (1):\n  main.go:25:2: SORT with an argument the code does not fix (sortpattern)\n",
		"\nreported (2):\n  main.go:21:28: MGet keys \"user:1:a\" (slot 323) and \"user:2:a\" (slot 6163)",
		"  main.go:24:2: KEYS on a cluster client runs on one node",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q:\n%s", want, text)
		}
	}
	for _, row := range []string{`crossslot\s+2\s+0\s+1\s+1\s+0`, `onenode\s+1\s+0\s+1\s+0\s+0`, `sortpattern\s+1\s+0\s+0\s+0\s+1`} {
		if !regexp.MustCompile(`(?m)^\s*` + row + `\s*$`).MatchString(text) {
			t.Errorf("no row %s:\n%s", row, text)
		}
	}

	js, stderr, code := runIn(t, dir, env, crossslotBin, "readiness", "-f", "json", "./...")
	if code != exitClean {
		t.Fatalf("crossslot readiness -f json: exit %d\n%s", code, stderr)
	}
	var sites []string
	for _, line := range strings.Split(strings.TrimSpace(js), "\n") {
		var r readinessRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a line that is not a record: %q: %v", line, err)
		}
		if r.Verdict != "summary" {
			sites = append(sites, fmt.Sprintf("%s:%d %s %s %q %s", r.File, r.Line, r.Check, r.Verdict, r.Keys, r.Reason))
		}
	}
	want := []string{
		`main.go:21 crossslot reported ["user:1:a" "user:2:a"] `,
		`main.go:23 crossslot suppressed ["cart:1" "orders:1"] //lint:ignore crossslot one shard in this deployment`,
		`main.go:24 onenode reported [] `,
		`main.go:25 sortpattern undecided [] SORT with an argument the code does not fix`,
	}
	if !slices.Equal(sites, want) {
		t.Errorf("JSON sites:\n%s\nwant:\n%s", strings.Join(sites, "\n"), strings.Join(want, "\n"))
	}
	again, _, _ := runIn(t, dir, env, crossslotBin, "readiness", "-f", "json", "./...")
	if again != js {
		t.Errorf("two runs differ:\n%s\n%s", js, again)
	}

	text, _, _ = runIn(t, dir, env, crossslotBin, "readiness", "-include-single-node=false", "./...")
	if !strings.Contains(text, "single-node ones left out (-include-single-node=false)") || strings.Contains(text, "MGet keys") {
		t.Errorf("-include-single-node=false judges the single-node client:\n%s", text)
	}
	if _, stderr, code := runIn(t, dir, env, crossslotBin, "readiness", "-f", "xml", "./..."); code != exitUsage || !strings.Contains(stderr, `unsupported output format "xml"`) {
		t.Errorf("-f xml: exit %d, want %d with the formats:\n%s", code, exitUsage, stderr)
	}
}

// readinessModule writes a module of one main package, with the readiness
// module's requirements (the real clients), importing the standard
// packages named and the clients, followed by src (its functions).
func readinessModule(t *testing.T, std []string, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(readinessDir, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	imports := "\t\"context\"\n"
	for _, p := range std {
		imports += "\t\"" + p + "\"\n"
	}
	head := "package main\n\nimport (\n" + imports + `
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

var (
	_ rueidis.Client
	_ redigo.Conn
	_ *redisc.Cluster
)

`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(head+src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
