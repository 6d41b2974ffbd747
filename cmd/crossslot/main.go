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
// sortpattern, onenode, shardedpubsub, keyspace; and ringshard, keys that
// go-redis's Ring may put on different shards (see -list-checks and
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
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/lsp"
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
		case "help":
			if len(os.Args) == 2 {
				fmt.Print(overview)
				return
			}
		case "lsp":
			if len(os.Args) == 2 {
				os.Exit(lsp.Serve(os.Stdin, os.Stdout, lsp.Options{Version: version()}))
			}
			if helpArg(os.Args[2:]) {
				fmt.Print(lspUsage)
				return
			}
			fmt.Fprint(os.Stderr, "crossslot lsp: takes no arguments\n"+lspUsage)
			os.Exit(exitUsage)
		case "coverage":
			os.Exit(coverageReport(os.Args[2:], os.Stdout, os.Stderr))
		case "keys":
			os.Exit(keysCommand(os.Args[2:], os.Stdout, os.Stderr))
		case "readiness":
			os.Exit(readinessReport(os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	if driverProtocol(os.Args[1:]) {
		refuseVetFlags(os.Args[1:], os.Stderr)
		unitchecker.Main(vetUnit(analyzer.New(&analyzer.Config{FactsOnly: factsOnly(os.Args[1:])}))) // exits
	}
	if len(os.Args) > 1 {
		if near, ok := mistypedSubcommand(os.Args[1]); ok {
			fmt.Fprintf(os.Stderr, "crossslot: unknown subcommand %q (did you mean %q?)\n%s", os.Args[1], near, overview)
			os.Exit(exitUsage)
		}
	}
	os.Exit(standalone(os.Args[1:]))
}

// overview is what crossslot help prints: the modes and subcommands.
const overview = `crossslot reports Redis Cluster CROSSSLOT bugs, malformed hash tags and what else
a cluster refuses, in Go code that uses go-redis, rueidis, valkey-go, redigo or GLIDE.

Usage:
  crossslot [flags] packages            analyze packages (crossslot -h lists the flags)
  crossslot -explain CHECK              what a check finds and how to fix it
  crossslot -list-checks                the checks
  go vet -vettool="$(go tool -n crossslot)" ./...
                                        the same analysis as a vet tool
  crossslot keys [flags] packages       the key families the code builds, with -live URL on a running
                                        cluster too (crossslot keys -h)
  crossslot readiness [flags] packages  what else breaks on a cluster (crossslot readiness -h)
  crossslot coverage FILE               sum a -crossslot.coverage report
  crossslot lsp                         a language server for editors, beside gopls
  crossslot help                        this text
`

// lspUsage is what crossslot lsp -h prints.
const lspUsage = `usage: crossslot lsp
  Serves the Language Server Protocol on standard input and output; an editor starts it
  beside gopls. It takes no flags: settings come from the editor (initializationOptions).
`

// helpArg reports arguments that ask for help.
func helpArg(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help")
}

// subcommands are crossslot's words before the packages.
var subcommands = []string{"help", "lsp", "keys", "readiness", "coverage"}

// mistypedSubcommand reports a first argument that is no package pattern
// a user writes (no '.', '/' or '-') and is one or two edits away from a
// subcommand: "kyes", "readines".
func mistypedSubcommand(arg string) (string, bool) {
	if arg == "" || strings.ContainsAny(arg, "./-=") {
		return "", false
	}
	for _, s := range subcommands {
		if arg != s && editDistance(arg, s) <= 2 {
			return s, true
		}
	}
	return "", false
}

// editDistance is the Levenshtein distance of two short words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// driverProtocol reports whether go vet or go fix is running the tool: they
// ask for its version (-V=full) and flags (-flags), then pass one *.cfg file
// per package. "help" is unitchecker's too.
// vetUnit is the analyzer as go vet runs it: one process per package,
// which ends with the package. Its analysis lets the heap grow to five
// times what is live before collecting (GOGC=400), as the compiler does for
// its short runs: what the analysis allocates (SSA, keys) is garbage by the
// end, and each collection would mark the type checker's heap again. The
// type checking before it keeps the default. A process the user gave a
// GOGC keeps theirs.
func vetUnit(a *analysis.Analyzer) *analysis.Analyzer {
	if os.Getenv("GOGC") != "" {
		return a
	}
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		return run(pass)
	}
	return a
}

// factsOnly reports a unit go vet runs for facts alone (a dependency of the
// packages it vets): its diagnostics are dropped, so no check need run.
// A unit that cannot be read is left to unitchecker, which says why.
func factsOnly(args []string) bool {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false
	}
	var unit struct{ VetxOnly bool }
	return json.Unmarshal(data, &unit) == nil && unit.VetxOnly
}

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
