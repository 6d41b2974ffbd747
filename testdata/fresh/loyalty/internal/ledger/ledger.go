// Package ledger is the points ledger: accruals from POS orders, debits for
// redemptions, transfers and household pools.
package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/loyalty/internal/keys"
)

// ErrInsufficientPoints is returned when a debit would make a balance negative.
var ErrInsufficientPoints = errors.New("ledger: insufficient points")

// ErrDuplicate is returned when an order was already accrued.
var ErrDuplicate = errors.New("ledger: order already accrued")

// Entry is one line of a member's ledger.
type Entry struct {
	Kind    string    `json:"kind"` // accrue, debit, transfer-in, transfer-out, expire
	Points  int64     `json:"points"`
	Order   string    `json:"order,omitempty"`
	Store   string    `json:"store,omitempty"`
	At      time.Time `json:"at"`
	Expires time.Time `json:"expires,omitzero"`
}

func (e Entry) encode() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// Options configure a Ledger.
type Options struct {
	// PointsTTL is how long accrued points stay spendable.
	PointsTTL time.Duration
	// IdempotencyTTL is how long an accrued order is remembered.
	IdempotencyTTL time.Duration
	// Now is the clock (tests replace it).
	Now func() time.Time
}

// Ledger is the repository of member balances.
type Ledger struct {
	rdb  redis.UniversalClient
	keys keys.Keyspace
	opt  Options
}

// New returns a Ledger over rdb.
func New(rdb redis.UniversalClient, ks keys.Keyspace, opt Options) *Ledger {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.PointsTTL == 0 {
		opt.PointsTTL = 365 * 24 * time.Hour
	}
	if opt.IdempotencyTTL == 0 {
		opt.IdempotencyTTL = 7 * 24 * time.Hour
	}
	return &Ledger{rdb: rdb, keys: ks, opt: opt}
}

// Accrue credits points for a POS order, once per order.
func (l *Ledger) Accrue(ctx context.Context, m keys.MemberID, o keys.OrderID, pts int64) error {
	// case L1: none
	now := l.opt.Now()
	lot := Entry{Kind: "accrue", Points: pts, Order: string(o), At: now, Expires: now.Add(l.opt.PointsTTL)}
	set, err := l.rdb.SetNX(ctx, l.keys.Idempotency(m, o), 1, l.opt.IdempotencyTTL).Result()
	if err != nil {
		return err
	}
	if !set {
		return ErrDuplicate
	}
	_, err = l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, l.keys.Balance(m), pts)
		p.IncrBy(ctx, l.keys.Lifetime(m), pts)
		p.RPush(ctx, l.keys.Entries(m), lot.encode())
		p.ZAdd(ctx, l.keys.Expiring(m), redis.Z{Score: float64(lot.Expires.Unix()), Member: lot.encode()})
		return nil
	})
	return err
}

// AccrueAtStore credits points and books them on the issuing store's daily
// counter, which finance reconciles against the POS.
func (l *Ledger) AccrueAtStore(ctx context.Context, m keys.MemberID, s keys.StoreID, pts int64) error {
	// case L2: crossslot
	now := l.opt.Now()
	e := Entry{Kind: "accrue", Points: pts, Store: string(s), At: now, Expires: now.Add(l.opt.PointsTTL)}
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, l.keys.Balance(m), pts)
		p.RPush(ctx, l.keys.Entries(m), e.encode())
		p.IncrBy(ctx, l.keys.StoreDaily(s, keys.DayOf(now)), pts)
		return nil
	})
	return err
}

// Debit takes points from a member's balance, optimistically.
func (l *Ledger) Debit(ctx context.Context, m keys.MemberID, pts int64, reason string) error {
	// case L3: none
	bal := l.keys.Balance(m)
	return l.rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, bal).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if cur < pts {
			return ErrInsufficientPoints
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.DecrBy(ctx, bal, pts)
			p.RPush(ctx, l.keys.Entries(m), Entry{Kind: reason, Points: -pts, At: l.opt.Now()}.encode())
			return nil
		})
		return err
	}, bal)
}

// Transfer moves points between two members (a gift from a parent to a child
// card, say), refusing to overdraw the sender.
func (l *Ledger) Transfer(ctx context.Context, from, to keys.MemberID, pts int64) error {
	// case L4: crossslot
	src, dst := l.keys.Balance(from), l.keys.Balance(to)
	return l.rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, src).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if cur < pts {
			return ErrInsufficientPoints
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.DecrBy(ctx, src, pts)
			p.IncrBy(ctx, dst, pts)
			return nil
		})
		return err
	}, src, dst)
}

var transferScript = redis.NewScript(`
local have = tonumber(redis.call('GET', KEYS[1]) or '0')
local want = tonumber(ARGV[1])
if have < want then
  return redis.error_reply('INSUFFICIENT')
end
redis.call('DECRBY', KEYS[1], want)
redis.call('INCRBY', KEYS[2], want)
return have - want
`)

// TransferAtomic is the script version of Transfer, used by the mobile app
// where retries under contention hurt latency.
func (l *Ledger) TransferAtomic(ctx context.Context, from, to keys.MemberID, pts int64) (int64, error) {
	// case L5: crossslot
	return transferScript.Run(ctx, l.rdb, []string{l.keys.Balance(from), l.keys.Balance(to)}, pts).Int64()
}

// Gift moves points to another member without a balance check; the caller
// already reserved them.
func (l *Ledger) Gift(ctx context.Context, from, to keys.MemberID, pts int64) error {
	// case L6: crossslot
	now := l.opt.Now()
	cmds, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.RPush(ctx, l.keys.Entries(from), Entry{Kind: "transfer-out", Points: -pts, At: now}.encode())
		p.RPush(ctx, l.keys.Entries(to), Entry{Kind: "transfer-in", Points: pts, At: now}.encode())
		return nil
	})
	_ = cmds
	return err
}

// Balances returns the balances of several members, for the store terminal's
// household view.
func (l *Ledger) Balances(ctx context.Context, ms ...keys.MemberID) (map[keys.MemberID]int64, error) {
	// case L7: crossslot
	ks := make([]string, len(ms))
	for i, m := range ms {
		ks[i] = l.keys.Balance(m)
	}
	vals, err := l.rdb.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[keys.MemberID]int64, len(ms))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			n, _ := strconv.ParseInt(s, 10, 64)
			out[ms[i]] = n
		}
	}
	return out, nil
}

// Summary is what the app's home screen shows.
type Summary struct {
	Balance, Lifetime int64
	Recent            []string
}

// Summary reads a member's balance, lifetime points and recent entries in one
// round trip.
func (l *Ledger) Summary(ctx context.Context, m keys.MemberID) (Summary, error) {
	// case L8: none
	vals, err := l.rdb.MGet(ctx, l.keys.Balance(m), l.keys.Lifetime(m)).Result()
	if err != nil {
		return Summary{}, err
	}
	var s Summary
	if v, ok := vals[0].(string); ok {
		s.Balance, _ = strconv.ParseInt(v, 10, 64)
	}
	if v, ok := vals[1].(string); ok {
		s.Lifetime, _ = strconv.ParseInt(v, 10, 64)
	}
	s.Recent, err = l.rdb.LRange(ctx, l.keys.Entries(m), -10, -1).Result()
	return s, err
}

// MarkOrders records a POS upload's orders as processed, all or nothing.
func (l *Ledger) MarkOrders(ctx context.Context, orders ...keys.OrderID) (bool, error) {
	// case L9: crossslot
	args := make([]any, 0, 2*len(orders))
	for _, o := range orders {
		args = append(args, l.keys.Order(o), 1)
	}
	return l.rdb.MSetNX(ctx, args...).Result()
}

// MarkStoreOrders is MarkOrders for uploads that carry their store and day.
func (l *Ledger) MarkStoreOrders(ctx context.Context, s keys.StoreID, d keys.Day, orders ...keys.OrderID) (bool, error) {
	// case L10: none
	args := make([]any, 0, 2*len(orders))
	for _, o := range orders {
		args = append(args, l.keys.StoreOrder(s, d, o), 1)
	}
	return l.rdb.MSetNX(ctx, args...).Result()
}

// Contribute moves a member's points into their household pool.
func (l *Ledger) Contribute(ctx context.Context, household string, m keys.MemberID, pts int64) error {
	// case L11: none
	pool, share := l.keys.HouseholdPool(household), l.keys.HouseholdShare(household, m)
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, pool, pts)
		p.IncrBy(ctx, share, pts)
		return nil
	})
	return err
}

// JoinHousehold moves a member's whole balance into the pool.
func (l *Ledger) JoinHousehold(ctx context.Context, household string, m keys.MemberID) error {
	// case L12: crossslot
	bal, pool := l.keys.Balance(m), l.keys.HouseholdPool(household)
	return l.rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, bal).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, bal, 0, 0)
			p.IncrBy(ctx, pool, n)
			return nil
		})
		return err
	}, bal, pool)
}

// Forget deletes everything the ledger holds about a member (GDPR erasure).
func (l *Ledger) Forget(ctx context.Context, m keys.MemberID) error {
	// case L13: none
	return l.rdb.Del(ctx, l.keys.Balance(m), l.keys.Lifetime(m), l.keys.Entries(m), l.keys.Expiring(m)).Err()
}

// MergeMembers folds a duplicate card into the member's main card: the
// expiring lots are merged, then the duplicate is erased.
func (l *Ledger) MergeMembers(ctx context.Context, keep, dup keys.MemberID) error {
	// case L14: crossslot
	dst := l.keys.Expiring(keep)
	if err := l.rdb.ZUnionStore(ctx, dst, &redis.ZStore{Keys: []string{dst, l.keys.Expiring(dup)}, Aggregate: "SUM"}).Err(); err != nil {
		return fmt.Errorf("merge lots: %w", err)
	}
	return l.rdb.Del(ctx, l.keys.Expiring(dup)).Err()
}

// ArchiveEntries rotates a member's ledger list at year end.
func (l *Ledger) ArchiveEntries(ctx context.Context, m keys.MemberID, year int) error {
	// case L15: none
	return l.rdb.Rename(ctx, l.keys.Entries(m), l.keys.Entries(m)+":"+strconv.Itoa(year)).Err()
}
