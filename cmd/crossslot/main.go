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
// sortpattern, onenode, shardedpubsub, keyspace (see -list-checks and
// -explain).
//
// The same binary is a vet tool and a fix tool; go vet and go fix drive it
// through the unitchecker protocol (-V=full, -flags, one *.cfg argument):
//
//	go vet -vettool="$(go tool -n crossslot)" ./...
//	go fix -fixtool="$(go tool -n crossslot)" ./...
//
// It also serves editors (crossslot lsp, a language server beside gopls),
// sums coverage files (crossslot coverage FILE), and lists the key families
// of packages (crossslot keys [-f json] [-slot N] [-key TEXT] packages). Analyzer flags are
// spelled -crossslot.NAME in every mode.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
	"honnef.co/go/tools/lintcmd"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/lsp"
	"github.com/crossslot/crossslot/target"
)

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
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "lsp":
			if len(os.Args) == 2 {
				os.Exit(lsp.Serve(os.Stdin, os.Stdout, lsp.Options{Version: version()}))
			}
		case "coverage":
			os.Exit(coverageReport(os.Args[2:], os.Stdout, os.Stderr))
		case "keys":
			os.Exit(keysCommand(os.Args[2:], os.Stdout, os.Stderr))
		case "readiness":
			os.Exit(readinessReport(os.Args[2:], os.Stdout, os.Stderr))
		}
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

// standalone runs the analysis with one lintcmd check per diagnostic
// category, and writes the findings itself (report).
func standalone(args []string) int {
	cmd, fs, cfg, a := newStandalone(args) // exits 2 with usage on a bad flag
	for name, extra := range map[string][]string{"checks": nil, "fail": {categoryDirective}} {
		if err := checkList(fs.Lookup(name).Value.String(), extra...); err != nil {
			fmt.Fprintf(os.Stderr, "crossslot: -%s: %v\n", name, err)
			return 2
		}
	}

	if name := fs.Lookup("explain").Value.String(); name != "" {
		return explain(os.Stdout, os.Stderr, name)
	}
	if cwd, err := os.Getwd(); err == nil {
		if err := errors.Join(checkConfigs(cwd), checkTargetsUnlessGiven(cwd, a)); err != nil {
			fmt.Fprintln(os.Stderr, "crossslot:", err)
			return exitUsage
		}
	}
	if err := separateCache(a); err != nil {
		fmt.Fprintln(os.Stderr, "crossslot:", err)
		return 1
	}
	for _, name := range []string{"list-checks", "version", "debug.version", "merge"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "true" {
			return cmd.Execute() // lintcmd's own answers, not an analysis
		}
	}
	switch fs.Lookup("f").Value.String() {
	case "text", "stylish", "json", "sarif":
		return report(cmd, fs, cfg, args)
	}
	return cmd.Execute() // null, binary (for -merge), or a format lintcmd rejects
}

// newStandalone is lintcmd's command with crossslot's checks and analyzer
// flags (spelled -crossslot.NAME), args parsed.
func newStandalone(args []string) (*lintcmd.Command, *flag.FlagSet, *analyzer.Config, *analysis.Analyzer) {
	cfg := &analyzer.Config{WholeProgram: true} // lintcmd loads every package of the run
	a := analyzer.New(cfg)
	cmd := lintcmd.NewCommand("crossslot")
	v := version()
	cmd.SetVersion(v, v)
	fs := cmd.FlagSet()
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, a.Name+"."+f.Name, f.Usage) })
	fs.Lookup("f").Usage = "Output `format` (valid choices are 'stylish', 'text', 'json' and 'sarif')"
	cmd.AddAnalyzers(checks(a)...)
	cmd.ParseFlags(args)
	return cmd, fs, cfg, a
}

// checkTargetsUnlessGiven checks the crossslot.conf files the run reads:
// none when -crossslot.target is given.
func checkTargetsUnlessGiven(cwd string, a *analysis.Analyzer) error {
	if s, ok := a.Flags.Lookup("target").Value.(*target.Setting); ok && s.Given {
		return nil
	}
	return checkTargets(cwd)
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
	if cwd, err := os.Getwd(); err == nil {
		settings = append(settings, "conf="+targetDigest(cwd))
	}
	return os.Setenv("STATICCHECK_CACHE", filepath.Join(base, strings.Join(settings, ",")))
}
