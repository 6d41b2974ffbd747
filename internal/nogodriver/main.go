// Command nogodriver runs crossslot's analyzer alone under x/tools's
// unitchecker, as Bazel's nogo and other unitchecker-style drivers run an
// analysis.Analyzer: none of cmd/crossslot's code (its flags, its
// crossslot.conf digest, its front ends) is linked in. A test vets a module
// with it and with crossslot, and wants the same findings: the analyzer
// needs nothing of its command.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/crossslot/crossslot/analyzer"
)

func main() { unitchecker.Main(analyzer.Analyzer) }
