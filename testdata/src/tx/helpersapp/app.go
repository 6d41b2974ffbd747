// Package helpersapp calls helpers' transactions with keys of its own.
package helpersapp

import (
	"context"

	"tx/helpers"
)

const audit = "economy:audit"

func spend(ctx context.Context, s *helpers.Store, p string) {
	s.Spend(ctx, p, audit)                      // want `^TxPipelined keys "\{player:<p>\}:wallet" \(Incr\) and "economy:audit" \(Incr\) are on different hash slots for all but about 1 in 16384 values of p \(assuming p holds no brace\); in helpers.Store.Spend \(helpers.go:23\), go-redis v9.11\+ rejects this transaction`
	s.Spend(ctx, p, "{player:"+p+"}:ledger")    // the player's own ledger: one slot
	s.SpendPinned(ctx, p, audit)                // want `^DoMulti keys "\{player:<p>\}:wallet" \(INCR\) and "economy:audit" \(INCR\) are on different hash slots`
	s.SpendPinned(ctx, p, "{player:"+p+"}:log") // one slot
	s.Hold(ctx, "sword", "hold:sword")          // want `^Watch keys "item:\{sword\}:stock" \(slot \d+\) and Set key "hold:sword" \(slot \d+\) are on different hash slots`
	s.Hold(ctx, "sword", "item:{sword}:hold")
	s.Own(ctx, p)
}

// PassOn gives its own parameter: its callers decide.
func PassOn(ctx context.Context, s *helpers.Store, p, ledger string) error { // want PassOn:`runs TxPipelined`
	return s.Spend(ctx, p, ledger)
}

func viaPassOn(ctx context.Context, s *helpers.Store) {
	PassOn(ctx, s, "7", "economy:audit") // want `^TxPipelined keys "\{player:7\}:wallet" \(slot \d+, Incr\) and "economy:audit" \(slot \d+, Incr\) are on different hash slots`
	PassOn(ctx, s, "7", "{player:7}:ledger")
}
