package conformance_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/analyzer/internal/conformance"
)

// floor is the number of bug cells the analyzer found when the matrix was
// last measured: the test fails below it, so that what is read stays read.
// Raise it as forms, carriers and commands are taught.
const floor = 5025

// TestMatrix generates the conformance matrix into a GOPATH beside the
// repository's client stubs, runs the default analyzer over it, and
// prints, by each dimension, the bugs found and the twins flagged. It fails
// for any twin flagged (a false finding) and when fewer bugs are found than
// the floor.
func TestMatrix(t *testing.T) {
	dir := t.TempDir()
	stubs, err := filepath.Abs("../../../testdata/src/github.com")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(stubs, filepath.Join(dir, "src", "github.com")); err != nil {
		t.Fatal(err)
	}
	for name, text := range conformance.Files() {
		path := filepath.Join(dir, "src", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	results := analysistest.Run(quiet{t}, dir, analyzer.Analyzer, "matrix/...")
	flagged := map[conformance.Cell]bool{}
	compiled := 0
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Pass.Pkg.Path(), r.Err)
		}
		placement := conformance.Placement(r.Pass.Pkg.Path())
		for _, file := range r.Pass.Files {
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				cell, ok := conformance.ParseFuncName(fn.Name.Name, placement)
				if !ok {
					continue
				}
				compiled++
				for _, d := range r.Diagnostics {
					if within(r.Pass.Fset, d.Pos, fn) {
						flagged[cell] = true
					}
				}
			}
		}
	}
	want := len(conformance.Forms) * len(conformance.Carriers) * len(conformance.Commands) * len(conformance.Placements) * 2
	if compiled != want {
		t.Fatalf("%d cells read, %d generated", compiled, want)
	}

	dims := []struct {
		name string
		of   func(conformance.Cell) string
		keys []string
	}{
		{"form", func(c conformance.Cell) string { return c.Form }, nil},
		{"carrier", func(c conformance.Cell) string { return c.Carrier }, nil},
		{"command", func(c conformance.Cell) string { return c.Command }, nil},
		{"client", func(c conformance.Cell) string { return conformance.Command{Name: c.Command}.Client() }, nil},
		{"placement", func(c conformance.Cell) string { return c.Placement }, nil},
	}
	tallies := make([]map[string]*tally, len(dims))
	var total tally
	for i := range dims {
		tallies[i] = map[string]*tally{}
	}
	var falses []string
	for _, placement := range conformance.Placements {
		for _, f := range conformance.Forms {
			for _, c := range conformance.Carriers {
				for _, cmd := range conformance.Commands {
					for _, bug := range []bool{true, false} {
						cell := conformance.Cell{Form: f.Name, Carrier: c.Name, Command: cmd.Name, Placement: placement, Bug: bug}
						// A silent command's bug cell is scored as a twin:
						// the client splits it, and a finding is false.
						expect := bug && !cmd.Silent
						for i, d := range dims {
							k := d.of(cell)
							if tallies[i][k] == nil {
								tallies[i][k] = &tally{}
								dims[i].keys = append(dims[i].keys, k)
							}
							count(tallies[i][k], expect, flagged[cell])
						}
						count(&total, expect, flagged[cell])
						if !expect && flagged[cell] {
							falses = append(falses, placement+"."+cell.FuncName())
						}
					}
				}
			}
		}
	}
	var out strings.Builder
	for i, d := range dims {
		fmt.Fprintf(&out, "\n%-24s %8s %11s\n", "by "+d.name, "found", "false")
		for _, k := range d.keys {
			c := tallies[i][k]
			fmt.Fprintf(&out, "%-24s %5d/%-5d %5d/%-5d\n", k, c.found, c.bugs, c.falses, c.twins)
		}
	}
	// Bugs found by command and carrier, of each pair's forms and
	// placements: where a command reads no carrier, or a carrier no
	// command.
	fmt.Fprintf(&out, "\nbugs found by command and carrier (of %d each; a silent command's findings in its bug cells in brackets)\n%-24s", len(conformance.Forms)*len(conformance.Placements), "")
	for _, c := range conformance.Carriers {
		fmt.Fprintf(&out, " %12s", c.Name)
	}
	out.WriteString("\n")
	for _, cmd := range conformance.Commands {
		fmt.Fprintf(&out, "%-24s", cmd.Name)
		for _, c := range conformance.Carriers {
			n := 0
			for _, placement := range conformance.Placements {
				for _, f := range conformance.Forms {
					if flagged[conformance.Cell{Form: f.Name, Carrier: c.Name, Command: cmd.Name, Placement: placement, Bug: true}] {
						n++
					}
				}
			}
			if cmd.Silent {
				fmt.Fprintf(&out, " %12s", fmt.Sprintf("[%d]", n))
			} else {
				fmt.Fprintf(&out, " %12d", n)
			}
		}
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "\n%-24s %5d/%-5d %5d/%-5d  (%.0f%% of bugs found)\n", "total", total.found, total.bugs, total.falses, total.twins, 100*float64(total.found)/float64(total.bugs))
	t.Logf("the conformance matrix: bugs found and twins flagged, by dimension (a silent command's bug cells, which the client splits, count as twins)\n%s", out.String())
	sort.Strings(falses)
	for _, f := range falses {
		t.Errorf("a twin flagged (a false finding): %s", f)
	}
	if total.found < floor {
		t.Errorf("%d bugs found, fewer than the floor of %d: a form, carrier or command that was read is not any more", total.found, floor)
	}
}

// A tally counts bug cells and those found, twin cells and those flagged.
type tally struct{ bugs, found, twins, falses int }

func count(t *tally, bug, flagged bool) {
	switch {
	case bug:
		t.bugs++
		if flagged {
			t.found++
		}
	default:
		t.twins++
		if flagged {
			t.falses++
		}
	}
}

// within reports whether pos lies in fn.
func within(fset *token.FileSet, pos token.Pos, fn *ast.FuncDecl) bool {
	return pos >= fn.Pos() && pos <= fn.End()
}

// quiet takes analysistest's complaints about diagnostics no // want line
// expects: the matrix has none; it is scored above.
type quiet struct{ *testing.T }

func (quiet) Errorf(string, ...any) {}
