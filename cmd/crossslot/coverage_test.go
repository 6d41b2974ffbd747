package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverageReport runs go vet with -crossslot.coverage on the example
// module and sums the file: every crossslot diagnostic go vet printed is a
// reported batch, the total adds up, and the text shows the reasons.
func TestCoverageReport(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	diags := vetModule(t, exampleDir, "example.com/shop", "-crossslot.coverage="+file)
	crossslots := 0
	for _, d := range diags {
		if d.Category == "crossslot" {
			crossslots++
		}
	}
	stdout, stderr, code := runIn(t, ".", nil, crossslotBin, "coverage", "-json", file)
	if code != 0 {
		t.Fatalf("crossslot coverage -json: exit %d\n%s", code, stderr)
	}
	var report struct {
		Packages []struct {
			Package                                             string
			Commands, Transactions, Proved, Reported, Undecided int
		}
		Total struct {
			Commands, Transactions, Proved, Reported, Undecided int
			Reasons                                             map[string]int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var shop bool
	for _, p := range report.Packages {
		if p.Package == "example.com/shop" {
			shop = true
			if p.Reported != crossslots {
				t.Errorf("example.com/shop: %d reported, go vet printed %d crossslot diagnostics", p.Reported, crossslots)
			}
		}
	}
	tot := report.Total
	if !shop || tot.Proved+tot.Reported+tot.Undecided != tot.Commands+tot.Transactions || tot.Proved == 0 || tot.Undecided == 0 {
		t.Errorf("report does not add up: %s", stdout)
	}
	text, _, _ := runIn(t, ".", nil, crossslotBin, "coverage", file)
	if !strings.Contains(text, "total") || !strings.Contains(text, "undecided, by reason:") {
		t.Errorf("text report:\n%s", text)
	}
	if _, _, code := runIn(t, ".", nil, crossslotBin, "coverage"); code != 2 {
		t.Errorf("crossslot coverage without a file: exit %d, want 2", code)
	}
}
