// Package wallet is an exported library that no code of its module calls:
// its users are its callers, and its keys are judged here.
package wallet

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Wallet struct{ rdb redis.UniversalClient }

func New(rdb redis.UniversalClient) *Wallet { return &Wallet{rdb: rdb} }

func (w *Wallet) Transfer(ctx context.Context, from, to string, amount int64) error {
	_, err := w.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "wallet:"+from+":balance")
		p.Incr(ctx, "wallet:"+to+":balance") // want `TxPipelined keys "wallet:<from>:balance" \(Incr\) and "wallet:<to>:balance" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
		return nil
	})
	return err
}

// A library that asks its users for a namespace puts it first: the users'
// to tag.
func (w *Wallet) TransferIn(ctx context.Context, ns, from, to string, amount int64) error { // want TransferIn:`runs TxPipelined\{Incr\(p3\+p4\); Incr\(p3\+p5\)\} at wallet.go:27`
	_, err := w.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, ns+from)
		p.Incr(ctx, ns+to)
		return nil
	})
	return err
}

func (w *Wallet) Balances(ctx context.Context, id string) error { // want Balances:`sink MGet`
	return w.rdb.MGet(ctx, "wallet:{"+id+"}:balance", "wallet:{"+id+"}:held").Err()
}
