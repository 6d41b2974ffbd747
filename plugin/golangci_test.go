package plugin_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/plugin"
)

// The golangci-lint tests build a plugin-enabled golangci-lint from the
// .custom-gcl.yml of docs/golangci-lint.md (the README's page on
// golangci-lint), offline but for the module proxy: a throwaway module whose
// main blank-imports the plugin and calls golangci-lint's commands.Execute,
// with a replace to this checkout. They then run it as users and editors do
// on testdata/golangci with that page's .golangci.yml.

const fixtureDir = "../testdata/golangci"

var (
	buildOnce sync.Once
	customGCL string
	buildErr  error
)

// golangciPage is the README's page on golangci-lint, which holds the
// configuration files and the lines the tests run.
const golangciPage = "../docs/golangci-lint.md"

// pageBlock returns golangciPage's fenced block whose first line is
// "# NAME".
func pageBlock(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(golangciPage)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n# "+name+"\n")
	if !ok {
		t.Fatalf("%s has no yaml block starting with # %s", golangciPage, name)
	}
	block, _, _ := strings.Cut(rest, "```")
	return "# " + name + "\n" + block
}

// yamlValue returns the value of the first "key: value" line of a block.
func yamlValue(t *testing.T, block, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*(?:- )?` + regexp.QuoteMeta(key) + `: (\S+)`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no %s in\n%s", key, block)
	}
	return m[1]
}

// goEnv runs go commands in the throwaway module: no workspace, module
// downloads allowed.
func goEnv() []string { return cmdtest.ModuleEnv() }

// buildCustomGCL builds golangci-lint with the plugin once per test binary.
// The module lives in the user cache directory, so go.sum and the Go build
// cache make later builds a relink.
// golangciEnv turns on the tests that build golangci-lint v2.15.0 with the
// plugin (over a minute on 2 cores with cold caches). .ci/run sets it; the
// README's test command leaves them out unless it is set.
const golangciEnv = "CROSSSLOT_GOLANGCI"

func buildCustomGCL(t *testing.T) string {
	t.Helper()
	if testing.Short() || os.Getenv(golangciEnv) == "" {
		t.Skipf("builds golangci-lint v2.15.0 with the plugin: set %s=1 to run it (.ci/run does)", golangciEnv)
	}
	custom := pageBlock(t, ".custom-gcl.yml")
	version, module, imp := yamlValue(t, custom, "version"), yamlValue(t, custom, "module"), yamlValue(t, custom, "import")
	if version != "v2.15.0" || module != "github.com/crossslot/crossslot" || imp != "github.com/crossslot/crossslot/plugin" {
		t.Fatalf(".custom-gcl.yml names golangci-lint %s, module %s, import %s", version, module, imp)
	}
	buildOnce.Do(func() { customGCL, buildErr = build(t, version, module, imp) })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return customGCL
}

func build(t *testing.T, version, module, imp string) (string, error) {
	checkout, err := filepath.Abs("..")
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "crossslot", "custom-gcl-"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	goMod := fmt.Sprintf(`module crossslot.test/customgcl

go 1.26.0

require (
	github.com/golangci/golangci-lint/v2 %s
	%s v0.0.0
)

replace %s => %s
`, version, module, module, checkout)
	mainGo := fmt.Sprintf(`// Command custom-gcl is golangci-lint %s with the crossslot plugin.
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ %q
)

func main() {
	info := commands.BuildInfo{Version: %q, Commit: "custom-gcl", Date: "n/a", GoVersion: "go"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %%v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
`, version, imp, strings.TrimPrefix(version, "v"))
	if old, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !bytes.HasPrefix(old, []byte(goMod)) {
		os.Remove(filepath.Join(dir, "go.sum")) // another checkout or version
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(mainGo), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "custom-gcl")
	start := time.Now()
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, goEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
	}
	if fi, err := os.Stat(bin); err == nil {
		t.Logf("built golangci-lint %s with the plugin in %s: %.1f MB", version, time.Since(start).Round(time.Second), float64(fi.Size())/1e6)
	}
	return bin, nil
}

// TestPinnedVersions checks that adding the plugin changes none of
// golangci-lint's own dependency versions: this module must not require
// anything newer than golangci-lint v2.15.0 pins (x/tools, honnef.co/go/tools,
// ...), or a custom build would silently run golangci-lint on upgraded code.
func TestPinnedVersions(t *testing.T) {
	bin := buildCustomGCL(t)
	dir := filepath.Dir(bin)
	run := func(args ...string) []byte {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, goEnv()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %v: %v", args, err)
		}
		return out
	}
	var dl struct{ GoMod string }
	if err := json.Unmarshal(run("mod", "download", "-json", "github.com/golangci/golangci-lint/v2@v2.15.0"), &dl); err != nil {
		t.Fatal(err)
	}
	var pinned struct {
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(run("mod", "edit", "-json", dl.GoMod), &pinned); err != nil {
		t.Fatal(err)
	}
	selected := map[string]string{}
	for _, line := range strings.Split(string(run("list", "-m", "all")), "\n") {
		if f := strings.Fields(line); len(f) >= 2 {
			selected[f[0]] = f[1]
		}
	}
	for _, r := range pinned.Require {
		if v, ok := selected[r.Path]; ok && v != r.Version {
			t.Errorf("%s: golangci-lint v2.15.0 pins %s, the build with the plugin selects %s", r.Path, r.Version, v)
		}
	}
	for _, path := range []string{"golang.org/x/tools", "honnef.co/go/tools", "github.com/golangci/plugin-module-register"} {
		t.Logf("%s %s", path, selected[path])
	}
	// What the plugin adds to golangci-lint's module graph: the modules
	// crossslot reaches that golangci-lint does not. Expected: crossslot,
	// its Lua parser (gopher-lua; the requirements of its REPL are pruned
	// from the graph), x/tools' go/expect module, which analysistest in
	// crossslot's tests requires, and the JSON schema validator (with its
	// JSON pointer and reference modules) that checks crossslot's SARIF in
	// its tests. The test-only ones are in the graph, not in the binary.
	expected := map[string]bool{
		"github.com/crossslot/crossslot": true, "github.com/yuin/gopher-lua": true, "golang.org/x/tools/go/expect": true,
		"github.com/xeipuuv/gojsonschema": true, "github.com/xeipuuv/gojsonpointer": true, "github.com/xeipuuv/gojsonreference": true,
	}
	edges := map[string][]string{}
	for _, line := range strings.Split(string(run("mod", "graph")), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			edges[f[0]] = append(edges[f[0]], f[1])
		}
	}
	reach := func(prefix string) map[string]bool {
		seen := map[string]bool{}
		var stack []string
		for from := range edges {
			if strings.HasPrefix(from, prefix) {
				stack = append(stack, from)
			}
		}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			path, _, _ := strings.Cut(n, "@")
			if seen[path] {
				continue
			}
			seen[path] = true
			stack = append(stack, edges[n]...)
		}
		return seen
	}
	ours, theirs := reach("github.com/crossslot/crossslot@"), reach("github.com/golangci/golangci-lint/v2@")
	var added []string
	for path := range ours {
		if theirs[path] {
			continue
		}
		added = append(added, path+" "+selected[path])
		if !expected[path] {
			t.Errorf("the plugin adds %s %s to golangci-lint's build: a new dependency to review", path, selected[path])
		}
	}
	sort.Strings(added)
	t.Logf("the plugin adds to golangci-lint v2.15.0's module graph: %s", strings.Join(added, ", "))
}

// fixture copies testdata/golangci with golangciPage's .golangci.yml, its
// settings line replaced when settings is not empty.
func fixture(t *testing.T, settings string) string {
	t.Helper()
	dir := cmdtest.CopyDir(t, fixtureDir)
	config := pageBlock(t, ".golangci.yml")
	if settings != "" {
		const line = "include-single-node: false"
		if !strings.Contains(config, line) {
			t.Fatalf("%s's .golangci.yml lacks %q", golangciPage, line)
		}
		config = strings.Replace(config, line, settings, 1)
	}
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runGCL runs the custom golangci-lint in dir with its own cache.
func runGCL(t *testing.T, bin, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return cmdtest.Run(t, dir, append(goEnv(), "GOLANGCI_LINT_CACHE="+t.TempDir()), bin, args...)
}

type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// issuesJSON runs golangci-lint with JSON output and returns the issues as
// "file:line: linter", sorted, with the raw issues.
func issuesJSON(t *testing.T, bin, dir string) ([]string, []gclIssue) {
	t.Helper()
	stdout, stderr, code := runGCL(t, bin, dir, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	var report struct{ Issues []gclIssue }
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("golangci-lint JSON (exit %d): %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	if want := map[bool]int{true: 1, false: 0}[len(report.Issues) > 0]; code != want {
		t.Errorf("exit %d with %d issues, want %d\n%s", code, len(report.Issues), want, stderr)
	}
	var got []string
	for _, is := range report.Issues {
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(is.Pos.Filename), is.Pos.Line, is.FromLinter))
	}
	sort.Strings(got)
	return got, report.Issues
}

// marked returns "file:line: linter" for each fixture line ending with
// "// MARKER: linter", sorted.
func marked(t *testing.T, markers ...string) []string {
	t.Helper()
	return cmdtest.Marked(t, fixtureDir, markers...)
}

// TestGolangciLint runs the custom build with golangciPage's .golangci.yml,
// then with include-single-node set, then with a misspelt setting.
func TestGolangciLint(t *testing.T) {
	bin := buildCustomGCL(t)

	got, issues := issuesJSON(t, bin, fixture(t, ""))
	if want := marked(t, "golangci"); strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) < 3 {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out, _ := json.MarshalIndent(issues, "", "  ")
	t.Logf("golangci-lint JSON issues:\n%s", out)
	wantText := `MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot`
	found := false
	for _, is := range issues {
		found = found || is.Text == wantText
	}
	if !found {
		t.Errorf("no issue says %q", wantText)
	}

	got, _ = issuesJSON(t, bin, fixture(t, "include-single-node: true"))
	if want := marked(t, "golangci", "with include-single-node"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("with include-single-node, issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	_, stderr, code := runGCL(t, bin, fixture(t, "include-singlenode: true"), "run", "./...")
	if code != 3 || !strings.Contains(stderr, `unknown setting "include-singlenode" (known settings: `+strings.Join(plugin.SettingNames(), ", ")+")") {
		t.Errorf("misspelt setting: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestGolangciLintFix applies the suggested fix with --fix.
func TestGolangciLintFix(t *testing.T) {
	bin := buildCustomGCL(t)
	dir := fixture(t, "")
	runGCL(t, bin, dir, "run", "--fix", "./...")
	b, err := os.ReadFile(filepath.Join(dir, "shop.go"))
	if err != nil {
		t.Fatal(err)
	}
	fixed := `rdb.MGet(ctx, "{user:1}:profile", "{user:1}:settings")`
	if !strings.Contains(string(b), fixed) || strings.Contains(string(b), `"user:1:profile"`) {
		t.Errorf("--fix did not write %s:\n%s", fixed, b)
	}
	if !strings.Contains(string(b), `rdb.MGet(ctx, "user:1:a", "user:2:a")`) {
		t.Errorf("--fix changed a call it has no fix for:\n%s", b)
	}
}

// vscodeLine is the Go extension's parser of lint output (runTool in
// extension/src/util.ts): optional prefix, file, line, optional column,
// message.
var vscodeLine = regexp.MustCompile(`^([^:]*: )?((.:)?[^:]*):(\d+)(:(\d+)?)?:(?:\w+:)? (.*)$`)

// TestVSCodeCommandLine runs the command line VS Code's Go extension runs
// for "go.lintTool": "golangci-lint-v2" with lint-on-save for the package
// (extension/src/goLint.ts), in the package's directory, and parses stdout
// as the extension does: every finding must come out as an absolute path
// with line, column and message.
func TestVSCodeCommandLine(t *testing.T) {
	bin := buildCustomGCL(t)
	dir := fixture(t, "")
	stdout, stderr, code := runGCL(t, bin, dir, "run", "--issues-exit-code=0",
		"--output.text.print-issued-lines=false", "--show-stats=false", "--output.text.path=stdout", "--path-mode=abs")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q: the extension shows nothing when the tool fails with stderr", code, stderr)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		m := vscodeLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("the extension cannot parse %q", line)
			continue
		}
		file, lineNo, col, msg := m[2], m[4], m[6], m[7]
		if !filepath.IsAbs(file) || filepath.Dir(file) != dir || col == "" {
			t.Errorf("%q: file %q (want absolute, in %s), column %q", line, file, dir, col)
		}
		if !strings.HasSuffix(msg, " (crossslot)") {
			t.Errorf("%q: message %q does not name the linter", line, msg)
		}
		got = append(got, fmt.Sprintf("%s:%s: crossslot", filepath.Base(file), lineNo))
	}
	sort.Strings(got)
	if want := marked(t, "golangci"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\nstdout:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout)
	}
}

// TestGolangciLintCustom runs golangciPage's lines as a user without GitHub
// does: golangci-lint v2.15.0 installed from the module proxy, then its own
// "custom" command on the page's .custom-gcl.yml, with the clone it makes
// redirected to a repository made from the module cache (the recipe
// golangci-offline). The page's plugin path, a placeholder for the
// reader's clone, becomes this checkout. The binary it builds must then
// report the fixture's issues.
func TestGolangciLintCustom(t *testing.T) {
	if os.Getenv(golangciEnv) == "" {
		t.Skipf("installs and builds golangci-lint v2.15.0: set %s=1 to run it (.ci/run does)", golangciEnv)
	}
	page, err := os.ReadFile(golangciPage)
	if err != nil {
		t.Fatal(err)
	}
	install := regexp.MustCompile(`(?m)^go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@\S+$`).FindString(string(page))
	if install == "" {
		t.Fatalf("%s has no line installing golangci-lint", golangciPage)
	}
	bin := t.TempDir()
	start := time.Now()
	if _, stderr, code := cmdtest.Run(t, bin, append(goEnv(), "GOBIN="+bin), "sh", "-c", install); code != 0 {
		t.Fatalf("%s: exit %d\n%s", install, code, stderr)
	}
	t.Logf("%s: %s", install, time.Since(start).Round(time.Second))

	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	config := pageBlock(t, ".custom-gcl.yml")
	if !strings.Contains(config, "path: /path/to/crossslot") {
		t.Fatalf("%s's .custom-gcl.yml lacks the plugin's path: /path/to/crossslot:\n%s", golangciPage, config)
	}
	config = strings.Replace(config, "path: /path/to/crossslot", "path: "+checkout, 1)
	dir := fixture(t, "")
	if err := os.WriteFile(filepath.Join(dir, ".custom-gcl.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(goEnv(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	start = time.Now()
	if _, stderr, code := cmdtest.Run(t, dir, env, "sh", "-ec", cmdtest.ReadmeRecipe(t, "../README.md", "golangci-offline")); code != 0 {
		t.Fatalf("the recipe golangci-offline: exit %d\n%s", code, stderr)
	}
	built := filepath.Join(dir, yamlValue(t, config, "name"))
	fi, err := os.Stat(built)
	if err != nil {
		t.Fatalf("golangci-lint custom built nothing: %v", err)
	}
	t.Logf("golangci-lint custom built %s in %s: %.1f MB", filepath.Base(built), time.Since(start).Round(time.Second), float64(fi.Size())/1e6)

	got, _ := issuesJSON(t, built, dir)
	if want := marked(t, "golangci"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
