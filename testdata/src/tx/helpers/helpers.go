// Package helpers runs transactions over keys its callers give: each call
// that fixes them is judged with its own keys (see helpersapp).
package helpers

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

type Store struct {
	rdb *redis.ClusterClient
	vc  valkey.Client
}

func wallet(p string) string { return "{player:" + p + "}:wallet" }

// Spend takes from the player's wallet and appends to the ledger its
// caller names, in one transaction.
func (s *Store) Spend(ctx context.Context, p, ledger string) error { // want Spend:`runs TxPipelined\{Incr\("\{player:"\+p3\+"\}:wallet"\); Incr\(p4\)\} at helpers.go:23`
	w := wallet(p)
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, w)
		pipe.Incr(ctx, ledger)
		return nil
	})
	return err
}

// Hold watches the item and writes the hold its caller names.
func (s *Store) Hold(ctx context.Context, item, hold string) error { // want Hold:`runs Watch\{Set\(p4\)\} at helpers.go:33`
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, hold, "1", 0)
			return nil
		})
		return err
	}, "item:{"+item+"}:stock")
}

// SpendPinned is Spend on valkey-go: WATCH, then MULTI ... EXEC on a
// dedicated connection.
func (s *Store) SpendPinned(ctx context.Context, p, ledger string) error { // want SpendPinned:`runs DoMulti\{INCR\("\{player:"\+p3\+"\}:wallet"\); INCR\(p4\)\} at helpers.go:47`
	w := wallet(p)
	return s.vc.Dedicated(func(c valkey.DedicatedClient) error {
		res := c.DoMulti(ctx,
			c.B().Multi().Build(),
			c.B().Incr().Key(w).Build(),
			c.B().Incr().Key(ledger).Build(),
			c.B().Exec().Build(),
		)
		return res[0].Error()
	})
}

// Own runs its transaction over keys of one tag: nothing for its callers.
func (s *Store) Own(ctx context.Context, p string) error {
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "{player:"+p+"}:a")
		pipe.Incr(ctx, "{player:"+p+"}:b")
		return nil
	})
	return err
}
