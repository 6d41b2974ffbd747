// Package payments places, captures and voids payment holds on rider wallets.
package payments

import (
	"errors"
	"fmt"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/fleet/internal/keys"
)

// ConnSource hands out connections; main gives us a *redisc.Cluster.
type ConnSource interface {
	Get() redis.Conn
}

// Holds manages payment holds.
type Holds struct {
	pool ConnSource
}

// NewHolds returns a Holds on pool.
func NewHolds(pool ConnSource) *Holds { return &Holds{pool: pool} }

func walletKey(r keys.RiderID, field string) string {
	return fmt.Sprintf("wallet:%s:%s", r, field)
}

func holdKey(t keys.TripID) string { return fmt.Sprintf("hold:%d", t) }

// walletKeyV2 and holdKeyV2 are the cluster layout: a hold lives with its
// trip, a wallet's keys share the rider's tag.
func walletKeyV2(r keys.RiderID, field string) string {
	return fmt.Sprintf("wallet:{%s}:%s", r, field)
}

func holdKeyV2(t keys.TripID, field string) string {
	return fmt.Sprintf("hold:{%d}:%s", t, field)
}

func execTx(c redis.Conn, cmds [][]any) ([]any, error) {
	if err := c.Send("MULTI"); err != nil {
		return nil, err
	}
	for _, cmd := range cmds {
		if err := c.Send(cmd[0].(string), cmd[1:]...); err != nil {
			return nil, err
		}
	}
	return redis.Values(c.Do("EXEC"))
}

// Place puts a hold of amount cents on the rider's wallet for a trip.
func (h *Holds) Place(r keys.RiderID, t keys.TripID, amount int64) error {
	// case F61: crossslot
	c := h.pool.Get()
	defer c.Close()
	held, hold := walletKey(r, "held"), holdKey(t)
	if err := redisc.BindConn(c, held, hold); err != nil {
		return err
	}
	_, err := execTx(c, [][]any{
		{"INCRBY", held, amount},
		{"HSET", hold, "rider", string(r), "amount", amount},
	})
	return err
}

// PlaceV2 puts a hold on the trip; the wallet's held total is updated from
// the hold stream by the ledger worker.
func (h *Holds) PlaceV2(r keys.RiderID, t keys.TripID, amount int64) error {
	// case F62: none
	c := h.pool.Get()
	defer c.Close()
	hold, events := holdKeyV2(t, "state"), holdKeyV2(t, "events")
	if err := redisc.BindConn(c, hold, events); err != nil {
		return err
	}
	_, err := execTx(c, [][]any{
		{"HSET", hold, "rider", string(r), "amount", amount},
		{"XADD", events, "*", "type", "placed", "amount", amount},
	})
	return err
}

// Capture turns a hold into a captured charge.
func (h *Holds) Capture(t keys.TripID) error {
	// case F63: crossslot
	c := h.pool.Get()
	defer c.Close()
	_, err := c.Do("RENAME", holdKey(t), fmt.Sprintf("captured:%d", t))
	return err
}

// CaptureV2 turns a hold into a captured charge.
func (h *Holds) CaptureV2(t keys.TripID) error {
	// case F64: none
	c := h.pool.Get()
	defer c.Close()
	_, err := c.Do("RENAME", holdKeyV2(t, "state"), holdKeyV2(t, "captured"))
	return err
}

var settle = redis.NewScript(2, `
local amt = tonumber(redis.call('HGET', KEYS[2], 'amount') or '0')
redis.call('DECRBY', KEYS[1], amt)
redis.call('DEL', KEYS[2])
return amt
`)

// Settle releases a hold from the rider's held total.
func (h *Holds) Settle(r keys.RiderID, t keys.TripID) (int64, error) {
	// case F65: crossslot
	c := h.pool.Get()
	defer c.Close()
	return redis.Int64(settle.Do(c, walletKey(r, "held"), holdKey(t)))
}

var settleV2 = redis.NewScript(2, `
local amt = tonumber(redis.call('HGET', KEYS[2], 'amount') or '0')
redis.call('HINCRBY', KEYS[1], 'settled', amt)
redis.call('DEL', KEYS[2])
return amt
`)

// SettleV2 settles a hold against the trip's ledger.
func (h *Holds) SettleV2(t keys.TripID) (int64, error) {
	// case F66: none
	c := h.pool.Get()
	defer c.Close()
	ledger, hold := holdKeyV2(t, "ledger"), holdKeyV2(t, "state")
	// EVALSHA's first argument is the SHA, so bind to the keys' node first.
	if err := redisc.BindConn(c, ledger, hold); err != nil {
		return 0, err
	}
	return redis.Int64(settleV2.Do(c, ledger, hold))
}

// Void drops a hold and its metadata.
func (h *Holds) Void(t keys.TripID) error {
	// case F67: crossslot
	c := h.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", holdKey(t), holdKey(t)+":meta")
	return err
}

// VoidV2 drops a hold and its metadata.
func (h *Holds) VoidV2(t keys.TripID) error {
	// case F68: none
	c := h.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", holdKeyV2(t, "state"), holdKeyV2(t, "meta"))
	return err
}

// Balance returns available and held cents.
func (h *Holds) Balance(r keys.RiderID) (avail, held int64, err error) {
	// case F69: crossslot
	c := h.pool.Get()
	defer c.Close()
	vals, err := redis.Int64s(c.Do("MGET", walletKey(r, "balance"), walletKey(r, "held")))
	if err != nil {
		return 0, 0, err
	}
	return vals[0], vals[1], nil
}

// BalanceV2 returns available and held cents.
func (h *Holds) BalanceV2(r keys.RiderID) (avail, held int64, err error) {
	// case F70: none
	c := h.pool.Get()
	defer c.Close()
	vals, err := redis.Values(c.Do("MGET", walletKeyV2(r, "balance"), walletKeyV2(r, "held")))
	if err != nil {
		return 0, 0, err
	}
	var a, b int64
	if _, err := redis.Scan(vals, &a, &b); err != nil && !errors.Is(err, redis.ErrNil) {
		return 0, 0, err
	}
	return a, b, nil
}

// ArchiveSettled moves a settled hold to the audit database.
func (h *Holds) ArchiveSettled(t keys.TripID) error {
	// case F71: database
	c := h.pool.Get()
	defer c.Close()
	_, err := c.Do("MOVE", holdKeyV2(t, "state"), 1)
	return err
}
