package guardcore

import (
	"errors"
	"testing"
)

// TestTransactionNamesEachKeysCommand: a transaction's keys on two slots are
// named with the command that sent each, as the analyzer names them.
func TestTransactionNamesEachKeysCommand(t *testing.T) {
	c := New(Options{Mode: Fail, Target: "redis:7.0"})
	var tx Tx
	if err := Check(c, Strings{"INCRBY", "user:1:visits", "2"}, &tx); err != nil {
		t.Fatalf("the transaction's first command: %v", err)
	}
	err := Check(c, Strings{"DECRBY", "user:2:visits", "2"}, &tx)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("the second command on another slot: got %v, want a guard error", err)
	}
	want := `CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MULTI/EXEC keys "user:1:visits" (slot 6646, INCRBY) and "user:2:visits" (slot 4483, DECRBY))`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if err := Check(c, Strings{"MGET", "user:1:visits", "user:2:visits"}, nil); err == nil || err.Error() != `CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:visits" (slot 6646) and "user:2:visits" (slot 4483))` {
		t.Errorf("outside a transaction: got %v, want the command named once", err)
	}
}
