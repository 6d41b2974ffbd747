package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// txDir is a module of transactions built against the real go-redis at two
// versions: v9.23.0 (go.mod), which refuses a cluster transaction across
// slots, and v9.10.0 (go.v910.mod), which splits it per slot.
const txDir = "../../testdata/tx"

var txVersions = []struct {
	name, modfile, fate string
}{
	{"v9.23.0", "go.mod", "go-redis v9.11+ rejects this transaction (ErrCrossSlot)"},
	{"v9.10.0", "go.v910.mod", "go-redis before v9.11 splits it per slot: it is not atomic"},
}

// txReported vets the tx module at one version and returns, per function,
// the messages reported in it.
func txReported(t *testing.T, modfile string) (map[string][]string, []string) {
	t.Helper()
	found, names := findingsByFunc(t, txDir, "example.com/tx", nil, "-modfile="+modfile)
	reported := map[string][]string{}
	for fn, ds := range found {
		for _, d := range ds {
			reported[fn] = append(reported[fn], d.Message)
		}
	}
	return reported, names
}

// TestTransactionsOnRealGoRedis vets the tx module at both versions: every
// bad* transaction gets exactly one diagnostic, which says what that
// version of go-redis does with it; good* ones get none.
func TestTransactionsOnRealGoRedis(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	for _, v := range txVersions {
		t.Run(v.name, func(t *testing.T) {
			reported, names := txReported(t, v.modfile)
			want := fmt.Sprintf("one diagnostic saying %q before its fix (badTx*) or saying that the callback runs on the watched keys' node (other bad*)", v.fate)
			expectEachBadOnce(t, "tx", names, reported, 4, want, func(fn, msg string) bool {
				if strings.HasPrefix(fn, "badTx") {
					// Keys of two users are told to co-locate under an
					// owner, not to run one transaction per slot.
					return strings.Contains(msg, "; "+v.fate+"; run one transaction per slot") ||
						strings.Contains(msg, "; "+v.fate+"; co-locate the keys under an owner")
				}
				return strings.Contains(msg, "the callback runs on the watched keys' node")
			})
		})
	}
}

// TestTransactionGroundTruth runs the tx module's transactions on the live
// three-master cluster with the real client at both versions. v9.23.0: every
// reported one fails (CROSSSLOT, or MOVED inside Watch) and writes nothing.
// v9.10.0: a reported transaction succeeds with every key written, which the
// server would have refused as one MULTI/EXEC, so the client split it; a
// reported Watch returns no error and writes nothing (the client swallows
// the MOVED). Every silent one succeeds and writes all its keys.
func TestTransactionGroundTruth(t *testing.T) {
	addr := redistest.ClusterAddr(t)
	for _, v := range txVersions {
		t.Run(v.name, func(t *testing.T) {
			reported, _ := txReported(t, v.modfile)
			runs := runScenarios(t, txDir, addr, "-modfile="+v.modfile)
			checked := 0
			for _, r := range runs {
				written, errText, _ := strings.Cut(r.detail, "\t")
				n, total, _ := strings.Cut(written, "/")
				all, none := n == total, n == "0"
				isReported := len(reported[r.name]) > 0
				split := v.name == "v9.10.0"
				var ok bool
				switch {
				case !isReported:
					ok = r.result == "ok" && all
				case !split:
					ok = r.result == "error" && none && (strings.Contains(errText, "CROSSSLOT") || strings.Contains(errText, "MOVED"))
				case strings.Contains(r.name, "Watch"):
					ok = r.result == "ok" && none
				default:
					ok = r.result == "ok" && all
				}
				if !ok {
					t.Errorf("%s: reported=%v, but the cluster said %v", r.name, isReported, r)
				}
				checked++
			}
			t.Logf("%s: %d transactions on %s agree with the analyzer", v.name, checked, addr)
			if checked < 8 {
				t.Fatalf("only %d transactions ran", checked)
			}
		})
	}
}

// TestOlderGoRedisTransactionMessages vets the legacy module, on the real
// go-redis v8.11.5, v7.4.1 and v6.15.9: their transactions are split per
// slot, and every transaction diagnostic says so.
func TestOlderGoRedisTransactionMessages(t *testing.T) {
	const dir = "../../testdata/legacy"
	funcAt, _ := funcsOf(t, filepath.Join(dir, "legacy.go"))
	splits, watch := 0, 0
	for _, d := range vetModule(t, dir, "example.com/legacy") {
		if funcAt(lineOf(t, d.Posn)) != "transactions" {
			continue
		}
		switch {
		case strings.Contains(d.Message, "; go-redis before v9.11 splits it per slot: it is not atomic; "):
			splits++
		case strings.HasPrefix(d.Message, "Watch keys"):
			watch++
		default:
			t.Errorf("transaction diagnostic %q says neither", d.Message)
		}
	}
	if splits != 4 || watch != 1 {
		t.Errorf("%d split and %d Watch diagnostics, want 4 (v8 TxPipelined and TxPipeline, v7, v6) and 1", splits, watch)
	}
}
