package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// ledgerDir is a realistic service whose methods take the ids of a request
// and an exported library (testdata/ledger): each bad* scenario calls a
// method that a cluster refuses, its good* twin the fixed method.
const ledgerDir = "../../testdata/ledger"

// ledgerFound are the default run's findings, each at the method of the
// bad* scenario it is the bug of: every key is built from the method's own
// parameters, which its callers fill with ids drawn at run time.
var ledgerFound = map[string]string{
	"wallet.go:27": "badTransfer",
	"wallet.go:53": "badSettle",
	"shop.go:24":   "badMergeWishlist",
	"shop.go:38":   "badCheckout",
	"shop.go:51":   "badCancel",
	"shop.go:69":   "badFollow",
	"shop.go:91":   "badReserve", // the watched key and the transaction's, twice
	"shop.go:113":  "badArchive",
	"shop.go:127":  "badPurge",
	"shop.go:141":  "badMoveStock",
}

// TestLedgerCorpus runs the default analyzer over the service: it finds
// every bad* scenario's bug, where its keys are built, and nothing in the
// fixed twins.
func TestLedgerCorpus(t *testing.T) {
	var found []string
	for _, byAnalyzer := range vetJSON(t, ledgerDir, []string{"./..."}) {
		for _, d := range byAnalyzer["crossslot"] {
			file, line, _ := strings.Cut(filepath.Base(d.Posn), ":")
			line, _, _ = strings.Cut(line, ":")
			at := file + ":" + line
			if _, ok := ledgerFound[at]; !ok {
				t.Errorf("a finding not in ledgerFound (a false alarm on a fixed twin, or a bug found anew): %s %s: %s", at, d.Category, d.Message)
			}
			found = append(found, at)
		}
	}
	bugs := map[string]bool{}
	for at, bug := range ledgerFound {
		if !slices.Contains(found, at) {
			t.Errorf("%s (%s) is no longer reported", at, bug)
		}
		bugs[bug] = true
	}
	bad := 0
	for _, name := range scenarioNamesIn(t, ledgerDir) {
		if strings.HasPrefix(name, "bad") {
			bad++
			if !bugs[name] {
				t.Errorf("%s: no finding for its bug", name)
			}
		}
	}
	t.Logf("ledger service: %d of %d bugs found, %d findings, none on the fixed twins", len(bugs), bad, len(found))
}

// TestLedgerGroundTruth runs the service on the three-master cluster: every
// bad* scenario is refused, every good* one succeeds.
func TestLedgerGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	runs := runScenarios(t, ledgerDir, addr)
	names := scenarioNamesIn(t, ledgerDir)
	if len(runs) != len(names) {
		t.Fatalf("%d runs for %d scenarios", len(runs), len(names))
	}
	refused := 0
	for _, r := range runs {
		switch bad := strings.HasPrefix(r.name, "bad"); {
		case bad && r.result != "error":
			t.Errorf("%s: the cluster took it (%s %s)", r.name, r.result, r.detail)
		case bad && !refusedAcrossSlots(r.detail):
			t.Errorf("%s: refused for another reason: %s", r.name, r.detail)
		case bad:
			refused++
		case r.result != "ok":
			t.Errorf("%s: %s %s, want ok", r.name, r.result, r.detail)
		}
	}
	t.Logf("ledger service on %s: %d bad scenarios refused, %d good ones ran", addr, refused, len(runs)-refused)
}

// refusedAcrossSlots: the error a cluster, or the client before it, gives
// keys of one command or transaction on different slots: CROSSSLOT (the
// server, or go-redis's ErrCrossSlot), rueidis's cluster builder's panic,
// or, inside Watch's transaction, the EXECABORT that follows a queued
// command's MOVED or CROSSSLOT.
func refusedAcrossSlots(detail string) bool {
	for _, s := range []string{"CROSSSLOT", "different key slots", "EXECABORT", "MOVED"} {
		if strings.Contains(detail, s) {
			return true
		}
	}
	return false
}
