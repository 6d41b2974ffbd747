package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/redistest"
)

// exampleDir is the bundled example module, which requires the real
// github.com/redis/go-redis/v9 v9.23.0 through the module proxy, so the stub
// in testdata/src cannot drift from the real API unnoticed.
const exampleDir = "../../testdata/example"

type vetDiagnostic struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
	SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
}

// vetExample runs go vet -vettool=crossslot -json on the example module.
func vetExample(t *testing.T) []vetDiagnostic {
	t.Helper()
	return vetModule(t, exampleDir, "example.com/shop")
}

// vetModule runs go vet -vettool=crossslot -json ./... in a module's
// directory, with extra go flags (such as -modfile), and returns pkg's
// crossslot diagnostics.
func vetModule(t *testing.T, dir, pkg string, flags ...string) []vetDiagnostic {
	t.Helper()
	return vetJSON(t, dir, []string{"./..."}, flags...)[pkg]["crossslot"]
}

// vetJSON runs go vet with crossslot in dir over the patterns and returns
// its diagnostics by package and analyzer.
func vetJSON(t *testing.T, dir string, patterns []string, flags ...string) map[string]map[string][]vetDiagnostic {
	t.Helper()
	args := append(append(append([]string{"vet"}, flags...), "-vettool="+crossslotBin, "-json"), patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, stderr.String())
	}
	text := stdout.String() + stderr.String()
	byPkg := map[string]map[string][]vetDiagnostic{}
	raw, err := finding.VetJSONValues(text)
	if err != nil {
		t.Fatalf("go vet JSON: %v\n%s", err, text)
	}
	values := len(raw)
	for _, r := range raw {
		var v map[string]map[string][]vetDiagnostic
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("go vet JSON: %v\n%s", err, r)
		}
		for pkg, byCat := range v {
			byPkg[pkg] = byCat
		}
	}
	if values == 0 {
		t.Fatalf("no JSON in go vet output:\n%s", text)
	}
	return byPkg
}

// exampleFuncs maps each line of the example's main.go to its function.
func exampleFuncs(t *testing.T) (funcAt func(line int) string, names []string) {
	t.Helper()
	return funcsOf(t, filepath.Join(exampleDir, "main.go"))
}

// funcsOf maps each line of a Go file to the function declared there, and
// lists the functions in order.
func funcsOf(t *testing.T, file string) (funcAt func(line int) string, names []string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	type span struct {
		name       string
		start, end int
	}
	var spans []span
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			spans = append(spans, span{fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
			names = append(names, fd.Name.Name)
		}
	}
	return func(line int) string {
		for _, s := range spans {
			if line >= s.start && line <= s.end {
				return s.name
			}
		}
		return ""
	}, names
}

func lineOf(t *testing.T, posn string) int {
	t.Helper()
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		t.Fatalf("bad position %q", posn)
	}
	n, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		t.Fatalf("bad position %q", posn)
	}
	return n
}

// reportedFuncs runs the analyzer on the example and returns, per function,
// the categories reported in it.
func reportedFuncs(t *testing.T) (map[string][]string, []string) {
	funcAt, names := exampleFuncs(t)
	reported := map[string][]string{}
	for _, d := range vetExample(t) {
		if !filepath.IsAbs(strings.SplitN(d.Posn, ":", 2)[0]) {
			t.Errorf("position %q is not absolute", d.Posn)
		}
		fn := funcAt(lineOf(t, d.Posn))
		reported[fn] = append(reported[fn], d.Category)
		if d.Category == "crossslot" && len(d.Related) != 1 {
			t.Errorf("%s: crossslot diagnostic without its related key: %+v", fn, d)
		}
	}
	return reported, names
}

func TestGoVetOnExampleWithRealGoRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example against the real go-redis")
	}
	reported, names := reportedFuncs(t)
	bad := 0
	for _, fn := range names {
		got := strings.Join(reported[fn], ",")
		switch {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if got != "crossslot" {
				t.Errorf("%s: reported %q, want exactly one crossslot", fn, got)
			}
		case fn == "tagMistakes":
			cats := append([]string(nil), reported[fn]...)
			sort.Strings(cats)
			if strings.Join(cats, ",") != "doubletag,emptytag,unclosedtag" {
				t.Errorf("%s: reported %q, want doubletag, emptytag and unclosedtag", fn, got)
			}
		default:
			if got != "" {
				t.Errorf("%s: reported %q, want nothing", fn, got)
			}
		}
	}
	if bad < 20 {
		t.Fatalf("only %d bad* functions in the example", bad)
	}
	// One message in full, as a user sees it.
	want := `MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot`
	found := false
	for _, d := range vetExample(t) {
		found = found || d.Message == want
	}
	if !found {
		t.Errorf("no diagnostic says %q", want)
	}
}

// TestGroundTruthOnLiveCluster runs the example's calls on the live
// cluster-enabled server: every call the analyzer reports must fail with
// CROSSSLOT, and every good* call, whose keys share a slot, must succeed.
func TestGroundTruthOnLiveCluster(t *testing.T) {
	addr := redistest.Addr(t)
	reported, _ := reportedFuncs(t)
	cmd := exec.Command("go", "run", ".", "-addr", addr)
	cmd.Dir = exampleDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the example: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) < 2 {
			t.Fatalf("unexpected example output line %q", line)
		}
		fn, result := fields[0], fields[1]
		isReported := strings.Join(reported[fn], ",") == "crossslot"
		crossSlot := result == "error" && strings.Contains(fields[2], "CROSSSLOT")
		switch {
		case isReported && !crossSlot:
			t.Errorf("%s: the analyzer reports it, but the server said %q", fn, line)
		case strings.HasPrefix(fn, "good") && (isReported || result != "ok"):
			t.Errorf("%s: keys share a slot, yet reported=%v and the server said %q", fn, isReported, line)
		case strings.HasPrefix(fn, "bad") && !isReported:
			t.Errorf("%s: not reported, server said %q", fn, line)
		}
		checked++
	}
	t.Logf("ground truth: %d example calls run on %s agree with the analyzer", checked, addr)
	if checked < 33 {
		t.Fatalf("only %d scenarios ran", checked)
	}
}

// findingsByFunc vets a scenario module and returns, per function of its
// main.go, the diagnostics reported in it, and the functions in order.
// attribute may place a finding elsewhere than by its line (a .lua file).
func findingsByFunc(t *testing.T, dir, pkg string, attribute func(vetDiagnostic) string, flags ...string) (map[string][]vetDiagnostic, []string) {
	t.Helper()
	funcAt, names := funcsOf(t, filepath.Join(dir, "main.go"))
	out := map[string][]vetDiagnostic{}
	for _, d := range vetModule(t, dir, pkg, flags...) {
		fn := ""
		if attribute != nil {
			fn = attribute(d)
		}
		if fn == "" {
			fn = funcAt(lineOf(t, d.Posn))
		}
		out[fn] = append(out[fn], d)
	}
	return out, names
}

// expectEachBadOnce checks the findings of a scenario module by function:
// each bad* function has exactly one finding, which accepts takes for the
// kind wanted (described by want), every other function none, and the
// module has at least minBad bad* functions.
func expectEachBadOnce[F any](t *testing.T, module string, names []string, found map[string][]F, minBad int, want string, accepts func(fn string, f F) bool) {
	t.Helper()
	bad := 0
	for _, fn := range names {
		switch fs := found[fn]; {
		case strings.HasPrefix(fn, "bad"):
			bad++
			if len(fs) != 1 || !accepts(fn, fs[0]) {
				t.Errorf("%s: reported %v, want %s", fn, fs, want)
			}
		case len(fs) > 0:
			t.Errorf("%s: reported %v, want nothing", fn, fs)
		}
	}
	if bad < minBad {
		t.Fatalf("only %d bad* functions in the %s module", bad, module)
	}
}

// expectClusterAgrees checks a scenario module's runs on a live cluster
// against the findings: every reported call was refused (as refused tells
// from its line), every other call succeeded. It returns how many ran.
func expectClusterAgrees[F any](t *testing.T, runs []scenarioRun, found map[string][]F, refused func(scenarioRun) bool) int {
	t.Helper()
	for _, r := range runs {
		switch reported := len(found[r.name]) > 0; {
		case reported && !refused(r):
			t.Errorf("%s: reported, but the cluster said %v", r.name, r)
		case !reported && r.result != "ok":
			t.Errorf("%s: not reported, but the cluster said %v", r.name, r)
		}
	}
	return len(runs)
}

// A scenarioRun is one line a scenario module prints: the function, "ok",
// "error" or "panic", and the rest (written keys, the error, ...).
type scenarioRun struct{ name, result, detail string }

// runScenarios runs a scenario module against a server, go flags first (such
// as -modfile), and reads its tab-separated lines.
func runScenarios(t *testing.T, dir, addr string, flags ...string) []scenarioRun {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"run"}, flags...), ".", "-addr", addr)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running %s: %v\n%s", dir, err, out)
	}
	return parseScenarios(t, string(out))
}

// parseScenarios reads a scenario module's tab-separated lines.
func parseScenarios(t *testing.T, out string) []scenarioRun {
	t.Helper()
	var runs []scenarioRun
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		f := strings.SplitN(line+"\t", "\t", 3) // an ok line may end in an empty field
		if len(f) != 3 {
			t.Fatalf("unexpected output line %q", line)
		}
		runs = append(runs, scenarioRun{f[0], f[1], strings.TrimSuffix(f[2], "\t")})
	}
	return runs
}
