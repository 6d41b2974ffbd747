package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/clustertarget"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/lintcmd"
)

// standalone runs the analysis with one lintcmd check per diagnostic
// category, and writes the findings itself (report).
func standalone(args []string) int {
	cmd, fs, cfg, a := newStandalone(args) // exits 2 with usage on a bad flag
	for _, name := range []string{"checks", "fail"} {
		if err := checkList(fs.Lookup(name).Value.String()); err != nil {
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
	if fs.Lookup("list-checks").Value.String() == "true" {
		return listChecks(os.Stdout)
	}
	for _, name := range []string{"version", "debug.version", "merge"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "true" {
			return cmd.Execute() // lintcmd's own answers, not an analysis
		}
	}
	switch f := fs.Lookup("f").Value.String(); f {
	case "text", "stylish", "json", "sarif":
		return report(cmd, fs, cfg, args)
	case "null", "binary":
		return cmd.Execute() // lintcmd's own: nothing, or its stream for -merge
	default:
		fmt.Fprintf(os.Stderr, "crossslot: unsupported output format %q; the formats are text, stylish, json and sarif\n", f)
		return exitUsage
	}
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
	// -fail's default is every check, as go vet and golangci-lint fail on
	// any finding: the same code gates alike in every front end. The
	// table's errors and warnings say how serious a finding is, not
	// whether it fails the run.
	fs.Set("fail", "all")
	fs.Lookup("fail").DefValue = "all"
	fs.Lookup("fail").Usage = "Exit non-zero if any of the provided checks failed; 'all' (the default) for every check, 'directive' included; '-name' takes one out"
	cmd.AddAnalyzers(checks(a)...)
	cmd.ParseFlags(args)
	// The key inventory and the coverage are outputs, not settings: the
	// analyzer reports them as records, which lintcmd caches with the
	// findings, and analyze writes the files the flags name. Kept out of
	// the flags, they stay out of the cache's key too (separateCache), so
	// that keys and readiness read the cache a plain run warmed.
	cfg.Records = true
	if checks := strings.Trim(fs.Lookup("checks").Value.String(), `"`); !slices.Contains(strings.Split(checks, ","), analyzer.CategoryRecord) {
		fs.Set("checks", checks+","+analyzer.CategoryRecord) // whichever checks -checks or staticcheck.conf select
	}
	recordOutputs = recordFiles{inventory: cfg.Inventory, coverage: cfg.Coverage, singleNode: map[string]int{}}
	cfg.Inventory, cfg.Coverage = "", ""
	return cmd, fs, cfg, a
}

// checkTargetsUnlessGiven checks the crossslot.conf files the run reads:
// none when -crossslot.target is given.
func checkTargetsUnlessGiven(cwd string, a *analysis.Analyzer) error {
	if s, ok := a.Flags.Lookup("target").Value.(*clustertarget.Setting); ok && s.Given {
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

// listChecks lists the checks as lintcmd's -list-checks does, by name,
// without the records' check, which is not one.
func listChecks(w io.Writer) int {
	cs := analyzer.Checks()
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		fmt.Fprintf(w, "%s %s\n", c.Name, c.Title)
	}
	return 0
}
