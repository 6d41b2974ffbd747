// Command noop is the baseline vet tool of the vetcost benchmark: it speaks
// go vet's protocol, declares a fact type as crossslot does, so go vet runs
// it on every dependency and it parses and type-checks each package as
// crossslot must, and it analyzes nothing.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

type nothing struct{}

func (*nothing) AFact() {}

var analyzer = &analysis.Analyzer{
	Name:      "noop",
	Doc:       "noop: type-check only",
	FactTypes: []analysis.Fact{new(nothing)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { unitchecker.Main(analyzer) }
