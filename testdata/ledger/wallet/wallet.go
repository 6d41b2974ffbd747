// Package wallet is an exported library: its users call it with ids read at
// run time (a request, a queue message), and nothing in its module calls it
// with ids of its own.
package wallet

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A Wallet keeps balances in Redis.
type Wallet struct {
	rdb redis.UniversalClient
}

// New makes a Wallet on any client, a cluster's included.
func New(rdb redis.UniversalClient) *Wallet { return &Wallet{rdb: rdb} }

func balance(account string) string { return "wallet:" + account + ":balance" }

// Transfer moves amount from one account to another in one transaction:
// two accounts, two slots.
func (w *Wallet) Transfer(ctx context.Context, from, to string, amount int64) error {
	_, err := w.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.DecrBy(ctx, balance(from), amount)
		p.IncrBy(ctx, balance(to), amount)
		return nil
	})
	return err
}

func pocket(user, name string) string { return "wallet:{" + user + "}:" + name }

// Save moves amount between two pockets of one user, whose keys share the
// user's tag.
func (w *Wallet) Save(ctx context.Context, user string, amount int64) error {
	_, err := w.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.DecrBy(ctx, pocket(user, "main"), amount)
		p.IncrBy(ctx, pocket(user, "savings"), amount)
		return nil
	})
	return err
}

var settle = redis.NewScript(`
local v = redis.call('GET', KEYS[1]) or '0'
redis.call('SET', KEYS[2], v)
return redis.call('DEL', KEYS[1])`)

// Settle moves a pending balance into another account with a script.
func (w *Wallet) Settle(ctx context.Context, pending, account string) error {
	return settle.Run(ctx, w.rdb, []string{"wallet:" + pending + ":pending", balance(account)}).Err()
}

// SettleOwn moves a user's pending balance into the same user's pocket.
func (w *Wallet) SettleOwn(ctx context.Context, user string) error {
	return settle.Run(ctx, w.rdb, []string{pocket(user, "pending"), pocket(user, "main")}).Err()
}
