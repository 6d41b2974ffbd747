package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/cmdtest"
)

// cliDir is the standalone command's fixture module (real go-redis).
const cliDir = "../../testdata/cli"

// lintDiagnostic is one line of lintcmd's -f json output.
type lintDiagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Location struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	} `json:"location"`
	Message string `json:"message"`
}

// lintJSON runs the standalone command with -f json in the cli fixture and
// returns "file:line: code" for every diagnostic, sorted.
func lintJSON(t *testing.T, args ...string) []string {
	t.Helper()
	return lintJSONIn(t, cliDir, args...)
}

func lintJSONIn(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	stdout, stderr, code := runIn(t, dir, fixtureEnv(), crossslotBin, append([]string{"-f", "json"}, args...)...)
	var got []string
	failing := 0
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var d lintDiagnostic
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(d.Location.File), d.Location.Line, d.Code))
		if d.Severity == "error" {
			failing++
		}
	}
	// The run fails on any finding (-fail's default), an error or a
	// warning, as go vet and golangci-lint do.
	if wantCode := map[bool]int{true: 1, false: 0}[len(got) > 0]; code != wantCode {
		t.Errorf("crossslot %v: exit %d with %d diagnostics, %d of them errors, want %d\n%s", args, code, len(got), failing, wantCode, stderr)
	}
	sort.Strings(got)
	return got
}

// markedLines reads "// reported: CODE" (or "// reported with FLAG: CODE")
// markers of the cli fixture's package dir and returns "file:line: code",
// sorted.
func markedLines(t *testing.T, dir, marker string) []string {
	t.Helper()
	return markedLinesIn(t, filepath.Join(cliDir, dir), marker)
}

func markedLinesIn(t *testing.T, dir, marker string) []string {
	t.Helper()
	return cmdtest.Marked(t, dir, marker)
}

// TestDirectives checks //lint:ignore and //lint:file-ignore per check: the
// fixture marks every line that must still be reported, including a
// directive naming the wrong check, reported as unmatched (category directive).
func TestDirectives(t *testing.T) {
	got := lintJSON(t, "./directives")
	want := markedLines(t, "directives", "reported")
	if len(want) < 4 {
		t.Fatalf("only %d marked lines in the fixture", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestChecksFlag selects checks by name, as staticcheck users do.
func TestChecksFlag(t *testing.T) {
	for _, tc := range []struct {
		checks string
		want   []string
	}{
		{"emptytag", []string{"line.go:23: emptytag"}},
		{"all,-emptytag", []string{"file.go:14: crossslot", "line.go:15: crossslot", "line.go:22: directive"}},
	} {
		got := lintJSON(t, "-checks", tc.checks, "./directives")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("-checks %s:\n%s\nwant:\n%s", tc.checks, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestIncludeSingleNodeStandalone runs the same package with and without
// the analyzer flag, back to back: lintcmd caches results per package, so
// the second run must not be answered with the first one's results.
func TestIncludeSingleNodeStandalone(t *testing.T) {
	t.Setenv("STATICCHECK_CACHE", t.TempDir())
	if got := lintJSON(t, "./singlenode"); len(got) != 0 {
		t.Errorf("without the flag: %v, want nothing", got)
	}
	got := lintJSON(t, "-crossslot.include-single-node", "./singlenode")
	want := markedLines(t, "singlenode", "reported with -crossslot.include-single-node")
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 {
		t.Errorf("with the flag: %v, want %v", got, want)
	}
	if got := lintJSON(t, "./singlenode"); len(got) != 0 {
		t.Errorf("without the flag again: %v, want nothing", got)
	}
}

// TestSkippedSingleNodeLine: the plain run ends with the count of the calls
// it left out as single-node (the fixture's MGET, KEYS and transaction, not
// its GET), and says how to judge them; with the flag, nothing is left out.
func TestSkippedSingleNodeLine(t *testing.T) {
	t.Setenv("STATICCHECK_CACHE", t.TempDir())
	want := "crossslot: 3 calls on single-node clients not checked (multi-key commands, transactions, readiness sites); crossslot readiness judges them as a cluster's, as does -crossslot.include-single-node\n"
	for _, format := range []string{"text", "json"} {
		_, stderr, code := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", format, "./singlenode")
		if code != exitClean || !strings.Contains(stderr, want) {
			t.Errorf("-f %s: exit %d, stderr lacks %q:\n%s", format, code, want, stderr)
		}
	}
	_, stderr, _ := runIn(t, cliDir, fixtureEnv(), crossslotBin, "-crossslot.include-single-node", "./singlenode")
	if strings.Contains(stderr, "single-node clients not checked") {
		t.Errorf("with -crossslot.include-single-node, a skipped line:\n%s", stderr)
	}
}

func TestExplain(t *testing.T) {
	for _, c := range analyzer.Checks() {
		stdout, _, code := runIn(t, ".", os.Environ(), crossslotBin, "-explain", c.Name)
		if code != 0 || !strings.HasPrefix(stdout, c.Name+": "+c.Title+"\n") || !strings.Contains(stdout, "\trdb.") ||
			!strings.Contains(stdout, "\n    "+docURL+"\n") || !strings.Contains(stdout, "\nTargets (-crossslot.target)\n    "+c.Targets+"\n") {
			t.Errorf("-explain %s: exit %d\n%s", c.Name, code, stdout)
		}
	}
	_, stderr, code := runIn(t, ".", os.Environ(), crossslotBin, "-explain", "SA1000")
	if code != exitUsage || !strings.Contains(stderr, `no check named "SA1000"; the checks are crossslot, emptytag, doubletag, unclosedtag`) {
		t.Errorf("-explain SA1000: exit %d, stderr %q", code, stderr)
	}
	stdout, _, code := runIn(t, ".", os.Environ(), crossslotBin, "-list-checks")
	for _, c := range analyzer.Checks() {
		if code != 0 || !strings.Contains(stdout, c.Name+" "+c.Title+"\n") {
			t.Errorf("-list-checks lacks %s:\n%s", c.Name, stdout)
		}
	}
}

// sarifLog is the part of SARIF 2.1.0 that code-scanning dashboards need.
type sarifLog struct {
	Version string `json:"version"`
	Schema  string `json:"$schema"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string `json:"id"`
					HelpURI          string `json:"helpUri"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs struct {
			SrcRoot struct {
				URI string `json:"uri"`
			} `json:"%SRCROOT%"`
		} `json:"originalUriBaseIds"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			Notifications       []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID  string `json:"ruleId"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []sarifLocation `json:"locations"`
			Related   []sarifLocation `json:"relatedLocations"`
			Fixes     []struct {
				Description struct {
					Text string `json:"text"`
				} `json:"description"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
			EndLine     int `json:"endLine"`
			EndColumn   int `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

// TestSARIF validates -f sarif on the example against go vet's diagnostics
// of the same code: one result per diagnostic, at the same place, with the
// fields code-scanning dashboards require.
func TestSARIF(t *testing.T) {
	stdout, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "-f", "sarif", "./...")
	if code != 0 {
		t.Fatalf("-f sarif: exit %d, want 0 (SARIF reports findings as success)\n%s", code, stderr)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, stdout)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
		t.Fatalf("SARIF header: version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if root, _ := filepath.Abs("../.."); run.OriginalURIBaseIDs.SrcRoot.URI != "file://"+filepath.ToSlash(root)+"/" {
		t.Errorf("%%SRCROOT%% is %q, want the repository root %s", run.OriginalURIBaseIDs.SrcRoot.URI, root)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].Notifications) != 0 {
		t.Errorf("invocations %+v, want one that succeeded", run.Invocations)
	}
	if run.Tool.Driver.Name != "crossslot" || run.Tool.Driver.InformationURI == "" {
		t.Errorf("driver %q, informationUri %q", run.Tool.Driver.Name, run.Tool.Driver.InformationURI)
	}
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		rules[r.ID] = true
		if r.ShortDescription.Text == "" || r.HelpURI != docURL {
			t.Errorf("rule %s: description %q, helpUri %q", r.ID, r.ShortDescription.Text, r.HelpURI)
		}
	}
	for _, c := range analyzer.Checks() {
		if !rules[c.Name] {
			t.Errorf("no SARIF rule for check %s", c.Name)
		}
	}

	// go vet's view of the same code, by message.
	vetAt := map[string]vetDiagnostic{}
	for _, d := range vetExample(t) {
		vetAt[d.Message] = d
	}
	if len(run.Results) < 10 {
		t.Errorf("%d SARIF results, want every diagnostic of the example", len(run.Results))
	}
	fixes := 0
	for _, r := range run.Results {
		msg, _, _ := strings.Cut(r.Message.Text, "\n") // related locations are appended as links
		vd, ok := vetAt[msg]
		if !ok {
			t.Errorf("SARIF result %q is not a go vet diagnostic", msg)
			continue
		}
		delete(vetAt, msg)
		if !rules[r.RuleID] || r.RuleID != vd.Category {
			t.Errorf("%q: ruleId %q, go vet category %q", msg, r.RuleID, vd.Category)
		}
		if len(r.Locations) != 1 {
			t.Fatalf("%q: %d locations", msg, len(r.Locations))
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "testdata/example/main.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("%q: artifact %+v, want testdata/example/main.go relative to %%SRCROOT%%", msg, loc.ArtifactLocation)
		}
		wantPos := fmt.Sprintf("main.go:%d:%d", loc.Region.StartLine, loc.Region.StartColumn)
		if !strings.HasSuffix(vd.Posn, "/"+wantPos) {
			t.Errorf("%q: SARIF region starts at %s, go vet at %s", msg, wantPos, vd.Posn)
		}
		if loc.Region.EndLine < loc.Region.StartLine || (loc.Region.EndLine == loc.Region.StartLine && loc.Region.EndColumn <= loc.Region.StartColumn) {
			t.Errorf("%q: empty region %+v", msg, loc.Region)
		}
		if r.RuleID == "crossslot" && len(r.Related) != 1 {
			t.Errorf("%q: %d related locations, want the other key", msg, len(r.Related))
		}
		fixes += len(r.Fixes)
	}
	for msg := range vetAt {
		t.Errorf("go vet diagnostic %q is missing from SARIF", msg)
	}
	if fixes != 3 {
		t.Errorf("%d fixes in SARIF, want those for badProfileAndSettings, badTemplateFamily and badNearSureFamily", fixes)
	}
}

// TestReadmeMentionsEveryFlag lists the standalone command's flags from its
// own usage text and requires docs/reference.md, the README's page of every
// flag, to document each one.
func TestReadmeMentionsEveryFlag(t *testing.T) {
	page, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	_, usage, _ := runIn(t, ".", os.Environ(), crossslotBin, "-h")
	flags := regexp.MustCompile(`(?m)^  -([\w.-]+)`).FindAllStringSubmatch(usage, -1)
	if len(flags) < 10 {
		t.Fatalf("found %d flags in the usage text:\n%s", len(flags), usage)
	}
	for _, f := range flags {
		if !strings.Contains(string(page), "`-"+f[1]) {
			t.Errorf("docs/reference.md does not mention -%s", f[1])
		}
	}
}

// TestVetProtocol checks the answers go vet and go fix ask for before they
// run the tool: they reach unitchecker, not the standalone command.
func TestVetProtocol(t *testing.T) {
	stdout, stderr, code := runIn(t, ".", os.Environ(), crossslotBin, "-V=full")
	if code != 0 || !strings.Contains(stdout, "version") {
		t.Errorf("-V=full: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr, code = runIn(t, ".", os.Environ(), crossslotBin, "-flags")
	var flags []struct{ Name string }
	if err := json.Unmarshal([]byte(stdout), &flags); code != 0 || err != nil {
		t.Fatalf("-flags: exit %d, %v\n%s%s", code, err, stdout, stderr)
	}
	found := false
	for _, f := range flags {
		found = found || f.Name == "crossslot.include-single-node"
	}
	if !found {
		t.Errorf("-flags does not list crossslot.include-single-node: %s", stdout)
	}
}

// TestTextAndStylish pins the two human formats on the directives fixture:
// text is file:line:col: message (check) with related keys indented below;
// stylish groups by file and counts what the directives silenced.
func TestTextAndStylish(t *testing.T) {
	stdout, stderr, code := runIn(t, cliDir, fixtureEnv(), crossslotBin, "./directives")
	if want := "crossslot -explain CHECK says more about each check and how to fix it (e.g. crossslot -explain crossslot)\n"; !strings.Contains(stderr, want) {
		t.Errorf("text: stderr lacks %q:\n%s", want, stderr)
	}
	for _, want := range []string{
		"directives/line.go:15:28: MGet keys \"user:3:a\" (slot 12067) and \"user:4:a\" (slot 10931) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot (crossslot)\n" +
			"\tdirectives/line.go:15:16: key \"user:3:a\" is on slot 12067\n",
		"directives/line.go:23:15: Get key \"legacy:{}:b\" has an empty hash tag {}, so the whole key is hashed; put the entity's id between the braces, or remove them (emptytag)\n",
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("text: exit %d, output lacks\n%s\ngot:\n%s", code, want, stdout)
		}
	}
	stdout, _, _ = runIn(t, cliDir, fixtureEnv(), crossslotBin, "-f", "stylish", "./directives")
	for _, want := range []string{
		"/directives/line.go\n",
		"(23, 15)", "emptytag",
		"10 problems (3 errors, 1 warnings, 6 ignored)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stylish output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestOlderGoRedis runs the standalone command on testdata/legacy, which
// calls the real go-redis v8.11.5, v7.4.1 and v6.15.9: every marked line,
// and only those, must be reported.
func TestOlderGoRedis(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	const dir = "../../testdata/legacy"
	got := lintJSONIn(t, dir, "./...")
	want := markedLinesIn(t, dir, "reported")
	if len(want) < 25 {
		t.Fatalf("only %d marked lines in the fixture", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestVetFlag passes the analyzer flag through go vet, which checks it
// against -flags and hands it to every unit.
func TestVetFlag(t *testing.T) {
	vet := func(args ...string) (string, int) {
		_, stderr, code := runIn(t, cliDir, fixtureEnv(), "go", append([]string{"vet", "-vettool=" + crossslotBin}, args...)...)
		return stderr, code
	}
	if stderr, code := vet("./singlenode"); code != 0 {
		t.Errorf("without the flag: exit %d\n%s", code, stderr)
	}
	stderr, code := vet("-crossslot.include-single-node", "./singlenode")
	if code != 1 || !strings.Contains(stderr, "singlenode.go:13:28: MGet keys \"user:1:a\" (slot 323) and \"user:2:a\" (slot 6163) are on different hash slots") {
		t.Errorf("with -crossslot.include-single-node: exit %d\n%s", code, stderr)
	}
	if stderr, code := vet("-crossslot.no-such-flag", "./singlenode"); code != 2 || !strings.Contains(stderr, "no-such-flag") {
		t.Errorf("unknown analyzer flag: exit %d\n%s", code, stderr)
	}
}

// TestSARIFNotAnalyzed checks that a package crossslot could not analyze is
// a tool execution notification of a failed invocation, not a result at line
// 0 of a rule "compile" that dashboards would show as a finding.
func TestSARIFNotAnalyzed(t *testing.T) {
	broken := brokenModule(t)
	stdout, stderr, code := runIn(t, broken, fixtureEnv(), crossslotBin, "-f", "sarif", "./...")
	if code != exitNotAnalyzed {
		t.Errorf("exit %d, want %d\n%s", code, exitNotAnalyzed, stderr)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, stdout)
	}
	run := log.Runs[0]
	if len(run.Results) != 0 {
		t.Errorf("%d results, want none: %+v", len(run.Results), run.Results)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful {
		t.Fatalf("invocations %+v, want one that failed", run.Invocations)
	}
	notes := run.Invocations[0].Notifications
	if len(notes) != 1 || notes[0].Level != "error" || !strings.Contains(notes[0].Message.Text, "cannot use \"x\"") {
		t.Errorf("notifications %+v, want the type error", notes)
	}
}

// TestMatrix: -matrix runs the analysis once per build configuration (one
// result stream each, decoded in this process) and prints each finding
// once: a file of every configuration's findings once, not once a
// configuration, and a file only one configuration builds with its own.
func TestMatrix(t *testing.T) {
	dir := sortModule(t)
	writeFiles(t, dir, map[string]string{"extra.go": `//go:build extra

package main

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func extra(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "extra:1", "extra:2")
}
`, "both.go": `package main

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func both(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, "both:1", "both:2")
}
`})
	cmd := exec.Command(crossslotBin, "-matrix", "-f", "json", "-checks", "crossslot", "./...")
	cmd.Dir, cmd.Env = dir, append(fixtureEnv(), "STATICCHECK_CACHE="+t.TempDir())
	cmd.Stdin = strings.NewReader("plain:\nextra: -tags=extra\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var lines []string
	for _, f := range decodeFindings(t, string(out)) {
		lines = append(lines, fmt.Sprintf("%s:%d %s", filepath.Base(f.Pos.File), f.Pos.Line, f.Check))
	}
	slices.Sort(lines)
	if want := []string{"both.go:10 crossslot", "extra.go:12 crossslot"}; !slices.Equal(lines, want) {
		t.Errorf("-matrix: %v (%v), want %v\n%s", lines, err, want, stderr.String())
	}
}
