package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/crossslot/crossslot/analyzer"
)

// coverageReport prints the sum of a coverage file written with
// -crossslot.coverage=FILE: per package and in total, the multi-key
// commands and transactions seen, proved on one slot, reported, and left
// undecided, with the reasons counted. -json prints it as JSON.
func coverageReport(args []string, stdout, stderr io.Writer) int {
	asJSON := false
	var files []string
	for _, a := range args {
		if a == "-json" || a == "--json" {
			asJSON = true
		} else {
			files = append(files, a)
		}
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "usage: crossslot coverage [-json] FILE  (FILE written by -crossslot.coverage=FILE)")
		return 2
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		fmt.Fprintln(stderr, "crossslot coverage:", err)
		return 2
	}
	pkgs, total, err := analyzer.SumCoverage(data)
	if err != nil {
		fmt.Fprintf(stderr, "crossslot coverage: %s: %v\n", files[0], err)
		return 2
	}
	if asJSON {
		out, err := json.MarshalIndent(struct {
			Packages []analyzer.Coverage `json:"packages"`
			Total    analyzer.Coverage   `json:"total"`
		}{pkgs, total}, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "crossslot coverage:", err)
			return 1
		}
		fmt.Fprintln(stdout, string(out))
		return 0
	}
	fmt.Fprintf(stdout, "%-50s %9s %13s %7s %9s %10s\n", "package", "commands", "transactions", "proved", "reported", "undecided")
	for _, c := range append(pkgs, total) {
		fmt.Fprintf(stdout, "%-50s %9d %13d %7d %9d %10d\n", c.Package, c.Commands, c.Transactions, c.Proved, c.Reported, c.Undecided)
	}
	if total.Panics > 0 {
		fmt.Fprintln(stdout, "\nnot checked after an internal error of crossslot (set CROSSSLOT_DEBUG=1 to print its stack, and report it):")
		for _, c := range pkgs {
			if c.Panics > 0 {
				fmt.Fprintf(stdout, "  %s: %s\n", c.Package, c.Panic)
			}
		}
	}
	exhausted := false
	for _, c := range pkgs {
		if c.Exhausted != "" {
			if !exhausted {
				fmt.Fprintln(stdout, "\nread in part: the reading passed its bound of work (the rest of the package is not checked; report it):")
				exhausted = true
			}
			fmt.Fprintf(stdout, "  %s: stopped in %s\n", c.Package, c.Exhausted)
		}
	}
	if total.OutOfSight > 0 {
		fmt.Fprintf(stdout, "\nnot decided: %d calls through the module's interfaces implemented in packages the caller does not import;\n"+
			"go vet analyzes each package apart, the standalone command and golangci-lint decide them where main wires them:\n", total.OutOfSight)
		for _, c := range pkgs {
			if c.OutOfSight > 0 {
				fmt.Fprintf(stdout, "  %s: %d\n", c.Package, c.OutOfSight)
			}
		}
	}
	if total.Assumed > 0 {
		fmt.Fprintf(stdout, "\nproved includes %d whose keys share one hash tag of one value: one slot, unless that value is empty or starts with '}'\n", total.Assumed)
	}
	if len(total.Reasons) > 0 {
		fmt.Fprintln(stdout, "\nundecided, by reason:")
		reasons := make([]string, 0, len(total.Reasons))
		for r := range total.Reasons {
			reasons = append(reasons, r)
		}
		sort.Slice(reasons, func(i, j int) bool { return total.Reasons[reasons[i]] > total.Reasons[reasons[j]] })
		for _, r := range reasons {
			fmt.Fprintf(stdout, "%6d  %s\n", total.Reasons[r], r)
		}
	}
	return 0
}
