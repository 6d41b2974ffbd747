// Package payouts tracks what the house owes its sellers.
package payouts

import (
	"context"
	"slices"
	"strconv"

	"github.com/zeromicro/go-zero/core/stores/redis"

	"example.com/auction/internal/keys"
)

// Ledger is the seller payout ledger on go-zero's redis store.
type Ledger struct {
	store  *redis.Redis
	feeBPS int64 // house commission in basis points
}

func NewLedger(store *redis.Redis, feeBPS int64) *Ledger {
	return &Ledger{store: store, feeBPS: feeBPS}
}

// Credit adds a hammer price to the seller's pending balance.
func (l *Ledger) Credit(ctx context.Context, s keys.SellerID, cents int64) error {
	_, err := l.store.IncrbyCtx(ctx, s.Pending(), cents)
	return err
}

// KEYS: pending, paid ; ARGV: amount
var settle = redis.NewScript(`
local pending = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if amount > pending then return -1 end
redis.call('DECRBY', KEYS[1], amount)
return redis.call('INCRBY', KEYS[2], amount)
`)

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}

// Settle moves an amount from pending to paid when the bank transfer ran.
func (l *Ledger) Settle(ctx context.Context, s keys.SellerID, cents int64) (int64, error) {
	// case B85: none
	v, err := l.store.ScriptRunCtx(ctx, settle, []string{s.Pending(), s.Paid()}, cents)
	return toInt(v), err
}

// KEYS: pending, paid, fees ; ARGV: amount, fee bps
var settleWithFee = redis.NewScript(`
local pending = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if amount > pending then return -1 end
local fee = math.floor(amount * tonumber(ARGV[2]) / 10000)
redis.call('DECRBY', KEYS[1], amount)
redis.call('INCRBY', KEYS[3], fee)
return redis.call('INCRBY', KEYS[2], amount - fee)
`)

// SettleWithFee also books the house commission.
func (l *Ledger) SettleWithFee(ctx context.Context, s keys.SellerID, cents int64) (int64, error) {
	// case B86: crossslot
	v, err := l.store.ScriptRunCtx(ctx, settleWithFee, []string{s.Pending(), s.Paid(), keys.PlatformFees}, cents, l.feeBPS)
	return toInt(v), err
}

const settleFXSrc = `
local rate = tonumber(redis.call('HGET', ARGV[2], ARGV[3]) or '1')
local amount = math.floor(tonumber(ARGV[1]) * rate)
local pending = tonumber(redis.call('GET', KEYS[1]) or '0')
if amount > pending then return -1 end
redis.call('DECRBY', KEYS[1], amount)
return redis.call('INCRBY', KEYS[2], amount)
`

// SettleFX settles an amount given in the seller's currency.
func (l *Ledger) SettleFX(ctx context.Context, s keys.SellerID, amount int64, currency string) (int64, error) {
	// case B87: script
	v, err := l.store.EvalCtx(ctx, settleFXSrc, []string{s.Pending(), s.Paid()}, amount, keys.FXRates, currency)
	return toInt(v), err
}

// Balance is a seller's payout position.
type Balance struct{ Pending, Paid int64 }

// Balances reads both sides of a seller's ledger.
func (l *Ledger) Balances(ctx context.Context, s keys.SellerID) (Balance, error) {
	// case B88: none
	vals, err := l.store.MgetCtx(ctx, s.Pending(), s.Paid())
	if err != nil {
		return Balance{}, err
	}
	return Balance{Pending: toInt(vals[0]), Paid: toInt(vals[1])}, nil
}

// Statement shows the seller's pending balance next to a lot's hammer price.
func (l *Ledger) Statement(ctx context.Context, s keys.SellerID, id keys.LotID) (pending, hammer int64, err error) {
	// case B89: crossslot
	vals, err := l.store.MgetCtx(ctx, s.Pending(), id.High())
	if err != nil {
		return 0, 0, err
	}
	return toInt(vals[0]), toInt(vals[1]), nil
}

// Close removes a seller's ledger after offboarding.
func (l *Ledger) Close(ctx context.Context, s keys.SellerID) (int, error) {
	// case B90: none
	return l.store.DelCtx(ctx, s.Pending(), s.Paid(), s.Ledger())
}

// PurgeLedgers drops the ledger hashes of several offboarded sellers.
func (l *Ledger) PurgeLedgers(ctx context.Context, sellers ...keys.SellerID) (int, error) {
	// case B91: crossslot?
	ks := make([]string, 0, len(sellers))
	for _, s := range sellers {
		ks = append(ks, s.Ledger())
	}
	return l.store.DelCtx(ctx, ks...)
}

// CreditMany books a batch of hammer prices, one pipeline for the batch.
func (l *Ledger) CreditMany(ctx context.Context, batch map[keys.SellerID]int64) error {
	// case B92: none
	return l.store.PipelinedCtx(ctx, func(p redis.Pipeliner) error {
		for s, cents := range batch {
			p.IncrBy(ctx, s.Pending(), cents)
		}
		return nil
	})
}

// Enqueue schedules a bank transfer for a seller.
func (l *Ledger) Enqueue(ctx context.Context, s keys.SellerID, transferID string) error {
	_, err := l.store.LpushCtx(ctx, s.Queue(), transferID)
	return err
}

// RetryNextPayout moves the oldest failed transfer of a seller to the retry queue.
func (l *Ledger) RetryNextPayout(ctx context.Context, s keys.SellerID) (string, error) {
	// case B94: none
	return l.store.RPopLPushCtx(ctx, s.Queue(), s.Retry())
}

// ReassignNextPayout hands the oldest transfer of a seller to the account
// that took over the consignment (estate sales, agencies).
func (l *Ledger) ReassignNextPayout(ctx context.Context, from, to keys.SellerID) (string, error) {
	// case B84: crossslot
	return l.store.RPopLPushCtx(ctx, from.Queue(), to.Queue())
}

// PendingSellers lists sellers with a pending balance for the payout run.
func (l *Ledger) PendingSellers(ctx context.Context) ([]string, error) {
	// case B93: onenode
	ks, err := l.store.KeysCtx(ctx, "payout:*:pending")
	slices.Sort(ks)
	return ks, err
}
