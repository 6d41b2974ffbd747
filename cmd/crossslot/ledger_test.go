package main

import (
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
	bugs, bad, findings := checkCorpusFindings(t, ledgerDir, ledgerFound)
	for _, name := range scenarioNamesIn(t, ledgerDir) {
		if strings.HasPrefix(name, "bad") && !bugs[name] {
			t.Errorf("%s: no finding for its bug", name)
		}
	}
	t.Logf("ledger service: %d of %d bugs found, %d findings, none on the fixed twins", len(bugs), bad, findings)
}

// TestLedgerGroundTruth runs the service on the three-master cluster: every
// bad* scenario is refused, every good* one succeeds. The refusals: the
// server's CROSSSLOT (or go-redis's ErrCrossSlot), rueidis's cluster
// builder's panic, and, inside Watch's transaction, the EXECABORT that
// follows a queued command's MOVED or CROSSSLOT.
func TestLedgerGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	refused, ran := checkGroundTruth(t, ledgerDir, addr, "CROSSSLOT", "different key slots", "EXECABORT", "MOVED")
	t.Logf("ledger service on %s: %d bad scenarios refused, %d good ones ran", addr, refused, ran)
}
