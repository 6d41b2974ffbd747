// Command crossslot reports Redis Cluster CROSSSLOT bugs and malformed hash
// tags in Go code that uses go-redis.
//
// Standalone:
//
//	crossslot [-crossslot.include-single-node] [-json] [-fix] packages...
//
// With go vet, which runs it once per package through the *.cfg protocol:
//
//	go vet -vettool=$(which crossslot) ./...
//
// Flags are spelled -crossslot.NAME in both modes.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/crossslot/crossslot/analyzer"
)

func main() { multichecker.Main(analyzer.Analyzer) }
