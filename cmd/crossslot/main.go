// Command crossslot reports Redis Cluster CROSSSLOT bugs, malformed hash tags
// and scripts that reach keys on other slots, in Go code that uses go-redis,
// rueidis, valkey-go, or redigo with redisc.
//
// Standalone, it is a staticcheck-style command (honnef.co/go/tools/lintcmd):
//
//	crossslot [-f text|stylish|json|sarif] [-checks LIST] [-crossslot.include-single-node] packages...
//	crossslot -explain CHECK
//	crossslot -list-checks
//
// with //lint:ignore CHECK reason and //lint:file-ignore CHECK reason
// directives. The checks are the diagnostic categories: crossslot, emptytag,
// doubletag, unclosedtag, unprovable, scriptslot, undeclaredkey, missingkey,
// hottag, and what else a cluster refuses or does differently: database,
// sortpattern, onenode, shardedpubsub (see -list-checks and -explain).
//
// The same binary is a vet tool and a fix tool; go vet and go fix drive it
// through the unitchecker protocol (-V=full, -flags, one *.cfg argument):
//
//	go vet -vettool="$(go tool -n crossslot)" ./...
//	go fix -fixtool="$(go tool -n crossslot)" ./...
//
// It also serves editors (crossslot lsp, a language server beside gopls)
// and sums coverage files (crossslot coverage FILE). Analyzer flags are
// spelled -crossslot.NAME in every mode.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/lintcmd"

	"github.com/crossslot/crossslot/analyzer"
)

// docURL is where the checks are documented online.
const docURL = "https://pkg.go.dev/github.com/crossslot/crossslot/analyzer"

func main() {
	switch args := os.Args[1:]; {
	case len(args) == 1 && (args[0] == "-V=full" || args[0] == "--V=full"):
		toolVersion(true)
		return
	case len(args) == 1 && (args[0] == "-V" || args[0] == "--V"):
		toolVersion(false)
		return
	case len(args) == 1 && (args[0] == "-version" || args[0] == "--version"):
		printVersion()
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "lsp" {
		os.Exit(serveLSP(os.Stdin, os.Stdout))
	}
	if len(os.Args) > 1 && os.Args[1] == "coverage" {
		os.Exit(coverageReport(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "readiness" {
		os.Exit(readinessReport(os.Args[2:], os.Stdout, os.Stderr))
	}
	if driverProtocol(os.Args[1:]) {
		unitchecker.Main(analyzer.Analyzer) // exits
	}
	os.Exit(standalone(os.Args[1:]))
}

// driverProtocol reports whether go vet or go fix is running the tool: they
// ask for its version (-V=full) and flags (-flags), then pass one *.cfg file
// per package. "help" is unitchecker's too.
func driverProtocol(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "help" || strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, arg := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if strings.HasPrefix(arg, "-") && (name == "V" || name == "flags") {
			return true
		}
	}
	return false
}

// standalone runs lintcmd with one check per diagnostic category.
func standalone(args []string) int {
	cfg := &analyzer.Config{}
	a := analyzer.New(cfg)
	cmd := lintcmd.NewCommand("crossslot")
	v := version()
	cmd.SetVersion(v, v)
	fs := cmd.FlagSet()
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, a.Name+"."+f.Name, f.Usage) })
	fs.Lookup("f").Usage = "Output `format` (valid choices are 'stylish', 'text', 'json' and 'sarif')"
	cmd.AddAnalyzers(checks(a)...)
	cmd.ParseFlags(args) // exits 2 with usage on a bad flag
	for name, extra := range map[string][]string{"checks": nil, "fail": {categoryDirective}} {
		if err := checkList(fs.Lookup(name).Value.String(), extra...); err != nil {
			fmt.Fprintf(os.Stderr, "crossslot: -%s: %v\n", name, err)
			return 2
		}
	}

	if name := fs.Lookup("explain").Value.String(); name != "" {
		return explain(os.Stdout, os.Stderr, name)
	}
	if format := os.Getenv(lintcmdOutputEnv); format != "" {
		return lintcmdRaw(fs, cmd.Execute, format)
	}
	if cwd, err := os.Getwd(); err == nil {
		if err := checkConfigs(cwd); err != nil {
			fmt.Fprintln(os.Stderr, "crossslot:", err)
			return exitUsage
		}
	}
	if err := separateCache(a); err != nil {
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return 1
	}
	switch fs.Lookup("f").Value.String() {
	case "sarif":
		return withOurLinks(args)
	case "text", "stylish", "json":
		return report(fs, args)
	}
	return cmd.Execute() // null, binary (for -merge), or a format lintcmd rejects
}

// checks gives lintcmd one check per diagnostic category, documented by
// analyzer.Checks. The crossslot check is the analyzer, which reports every
// category; the other checks only name theirs. lintcmd keeps a diagnostic
// when the check named by its category is enabled, so -checks and
// //lint:ignore work per category while the analysis runs once.
func checks(a *analysis.Analyzer) []*lint.Analyzer {
	var out []*lint.Analyzer
	for _, c := range analyzer.Checks() {
		check := &lint.Analyzer{
			Doc:      &lint.RawDocumentation{Title: c.Title, Text: c.Text, Severity: lint.SeverityWarning},
			Analyzer: a,
		}
		if c.Name == analyzer.CategoryCrossSlot {
			check.Doc.Severity = lint.SeverityError
		} else {
			check.Analyzer = &analysis.Analyzer{
				Name: c.Name,
				Doc:  c.Title + " (reported by the crossslot analyzer)",
				Run:  func(*analysis.Pass) (any, error) { return nil, nil },
			}
		}
		out = append(out, check)
	}
	return out
}

// checkList rejects a -checks or -fail list naming a check that does not
// exist, which lintcmd would take as a selection of nothing: a typo there
// would silently turn the checks off.
func checkList(list string, extra ...string) error {
	known := map[string]bool{"all": true, "*": true, "inherit": true}
	var names []string
	for _, c := range analyzer.Checks() {
		known[c.Name] = true
		names = append(names, c.Name)
	}
	for _, name := range extra {
		known[name] = true
		names = append(names, name)
	}
	for _, elem := range strings.Split(strings.Trim(list, `"`), ",") {
		elem = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(elem), "-"))
		if elem != "" && !known[elem] {
			return fmt.Errorf("unknown check %q; the checks are %s (and all)", elem, strings.Join(names, ", "))
		}
	}
	return nil
}

// explain prints a check's documentation, as lintcmd's -explain does, with a
// link to this project's documentation.
func explain(stdout, stderr io.Writer, name string) int {
	for _, c := range analyzer.Checks() {
		if strings.EqualFold(c.Name, name) {
			fmt.Fprintf(stdout, "%s: %s\n\n%s\n\nOnline documentation\n    %s#hdr-Check_%s\n", c.Name, c.Title, c.Text, docURL, c.Name)
			return 0
		}
	}
	var names []string
	for _, c := range analyzer.Checks() {
		names = append(names, c.Name)
	}
	fmt.Fprintf(stderr, "crossslot: no check named %q; the checks are %s\n", name, strings.Join(names, ", "))
	return 1
}

// separateCache keeps results for different analyzer settings apart.
// lintcmd caches results by package and binary, not by analyzer flags, so a
// run with -crossslot.include-single-node could otherwise be answered from
// a run without it.
func separateCache(a *analysis.Analyzer) error {
	base := os.Getenv("STATICCHECK_CACHE")
	if base == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory: %v; set STATICCHECK_CACHE to an absolute path", err)
		}
		base = filepath.Join(dir, "crossslot")
	}
	var settings []string
	a.Flags.VisitAll(func(f *flag.Flag) { settings = append(settings, f.Name+"="+f.Value.String()) })
	sort.Strings(settings)
	return os.Setenv("STATICCHECK_CACHE", filepath.Join(base, strings.Join(settings, ",")))
}

// withOurLinks runs lintcmd for SARIF and points the help links, which
// lintcmd sets to staticcheck's site, at this project's documentation.
func withOurLinks(args []string) int {
	captured, code := lintcmdOutput(args, "sarif")
	out, notAnalyzed := relinkSARIF(captured)
	os.Stdout.Write(out)
	if notAnalyzed && code != exitUsage {
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (see the SARIF invocation's toolExecutionNotifications); exit 3")
		return exitNotAnalyzed
	}
	return code
}

// relinkSARIF rewrites the driver's informationUri and each rule's helpUri,
// and fixes the run (fixSARIF), saying whether some packages could not be
// analyzed; anything it cannot parse is passed through unchanged.
func relinkSARIF(out []byte) (_ []byte, notAnalyzed bool) {
	var log map[string]any
	if json.Unmarshal(out, &log) != nil {
		return out, false
	}
	runs, _ := log["runs"].([]any)
	for _, run := range runs {
		driver, _ := dig(run, "tool", "driver").(map[string]any)
		if driver == nil {
			continue
		}
		if run, ok := run.(map[string]any); ok {
			notAnalyzed = !fixSARIF(run) || notAnalyzed
		}
		driver["informationUri"] = "https://github.com/crossslot/crossslot"
		rules, _ := driver["rules"].([]any)
		for _, rule := range rules {
			if rule, ok := rule.(map[string]any); ok {
				rule["helpUri"] = fmt.Sprintf("%s#hdr-Check_%v", docURL, rule["id"])
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(log) != nil {
		return out, notAnalyzed
	}
	return b.Bytes(), notAnalyzed
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// version is the module version the binary was built from ("devel" in a
// checkout).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return "devel"
	}
	// A release (go install ...@v1.2.3, go get -tool), or, built in a
	// checkout, the pseudo-version the go command stamps from the VCS:
	// v0.0.0-DATE-REVISION, with +dirty for uncommitted changes.
	return info.Main.Version
}

// printVersion answers -version. lintcmd would print "(no version)" for a
// build that carries neither a module version nor a VCS revision; this says
// why and how to get one.
func printVersion() {
	if v := version(); v != "devel" {
		fmt.Println("crossslot", v)
		return
	}
	fmt.Println("crossslot devel (no version stamped: built outside a git checkout or with -buildvcs=false; `go install -buildvcs=true ./cmd/crossslot` in a clone stamps the revision)")
}

// toolVersion answers go vet's and go fix's -V=full, which they use as the
// tool's identity for caching: the version and a hash of the executable, so
// that any rebuild is a new tool. (unitchecker's own answer says "devel
// comments-go-here".)
func toolVersion(full bool) {
	line := "crossslot version " + version()
	if full {
		h := sha256.New()
		if exe, err := os.Executable(); err == nil {
			if f, err := os.Open(exe); err == nil {
				io.Copy(h, f)
				f.Close()
			}
		}
		line += fmt.Sprintf(" buildID=%x", h.Sum(nil))
	}
	fmt.Println(line)
}
