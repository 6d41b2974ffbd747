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
	"os"
	"strings"

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
