// Package payouts accrues instructor revenue and pays it out. The finance team
// writes against go-redis's UniversalClient so the same code runs on a laptop's
// single Redis and on the cluster.
package payouts

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"example.com/learn/internal/ids"
	"example.com/learn/internal/keys"
)

// Config is the ledger's configuration.
type Config struct {
	Namespace keys.Space // "pay"
	// LegacyDB is the database the old reporting job read archived periods from.
	LegacyDB int
}

// Ledger is the payouts store.
type Ledger struct {
	rdb redis.UniversalClient
	cfg Config
}

// NewLedger returns a Ledger.
func NewLedger(rdb redis.UniversalClient, cfg Config) *Ledger { return &Ledger{rdb: rdb, cfg: cfg} }

// pending balance, legacy layout: pay:payout:<instructor>:pending
func (l *Ledger) pendingLegacy(i ids.InstructorID) string {
	return l.cfg.Namespace.Join("payout", string(i), "pending")
}

// instructor-scoped keys, cluster layout: pay:payout:{<instructor>}:<field>
func (l *Ledger) of(i ids.InstructorID, field ...string) string {
	return l.cfg.Namespace.Tagged("payout", string(i), field...)
}

func (l *Ledger) courseRevenue(c ids.CourseID) string {
	return l.cfg.Namespace.Join("revenue", string(c))
}

// Accrue books a sale: the instructor's pending balance and the course revenue hash.
func (l *Ledger) Accrue(ctx context.Context, i ids.InstructorID, c ids.CourseID, cents int64) error {
	// case E63: crossslot
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, l.of(i, "pending"), cents)
		p.HIncrBy(ctx, l.courseRevenue(c), string(i), cents)
		return nil
	})
	return err
}

// AccrueV2 books a sale on the instructor's own keys.
func (l *Ledger) AccrueV2(ctx context.Context, i ids.InstructorID, c ids.CourseID, cents int64) error {
	// case E64: none
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.IncrBy(ctx, l.of(i, "pending"), cents)
		p.HIncrBy(ctx, l.of(i, "by-course"), string(c), cents)
		p.RPush(ctx, l.of(i, "ledger"), fmt.Sprintf("sale:%s:%d", c, cents))
		return nil
	})
	return err
}

// ClosePeriod freezes the pending balance under the period's name.
func (l *Ledger) ClosePeriod(ctx context.Context, i ids.InstructorID, period string) error {
	// case E65: crossslot
	return l.rdb.Rename(ctx, l.of(i, "pending"), l.cfg.Namespace.Join("closed", period, string(i))).Err()
}

// ClosePeriodV2 freezes the pending balance next to the instructor's other keys.
func (l *Ledger) ClosePeriodV2(ctx context.Context, i ids.InstructorID, period string) error {
	// case E66: none
	return l.rdb.Rename(ctx, l.of(i, "pending"), l.of(i, "closed", period)).Err()
}

// settle moves the pending balance, minus the platform fee, to paid.
var settle = redis.NewScript(`
local pending = tonumber(redis.call('GET', KEYS[1]) or '0')
if pending <= 0 then return 0 end
local fee = math.floor(pending * tonumber(ARGV[1]) / 100)
redis.call('INCRBY', KEYS[2], fee)
redis.call('INCRBY', KEYS[3], pending - fee)
redis.call('SET', KEYS[1], 0)
return pending - fee
`)

// Settle pays an instructor out and books the platform's fee.
func (l *Ledger) Settle(ctx context.Context, i ids.InstructorID, feePct int) (int64, error) {
	// case E67: crossslot
	return settle.Run(ctx, l.rdb, []string{
		l.of(i, "pending"),
		l.cfg.Namespace.Join("platform", "fees"),
		l.of(i, "paid"),
	}, feePct).Int64()
}

// SettleV2 books the fee on the instructor's side; the fee report sums them.
func (l *Ledger) SettleV2(ctx context.Context, i ids.InstructorID, feePct int) (int64, error) {
	// case E68: none
	return settle.Run(ctx, l.rdb, []string{l.of(i, "pending"), l.of(i, "fees"), l.of(i, "paid")}, feePct).Int64()
}

// ArchivePeriod moves a closed period to the reporting database.
func (l *Ledger) ArchivePeriod(ctx context.Context, i ids.InstructorID, period string) error {
	// case E69: database
	return l.rdb.Move(ctx, l.of(i, "closed", period), l.cfg.LegacyDB).Err()
}

// ArchivePeriodV2 keeps archived periods in an archive namespace, with a TTL.
func (l *Ledger) ArchivePeriodV2(ctx context.Context, i ids.InstructorID, period string) error {
	// case E70: none
	src := l.of(i, "closed", period)
	dst := l.of(i, "archive", period)
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Rename(ctx, src, dst)
		p.Expire(ctx, dst, 400*24*60*60*1e9)
		return nil
	})
	return err
}

// PendingInstructors lists the pending-balance keys for the payout run.
func (l *Ledger) PendingInstructors(ctx context.Context) ([]string, error) {
	// case E71: onenode
	return l.rdb.Keys(ctx, l.cfg.Namespace.Join("payout", "*", "pending")).Result()
}

// PendingInstructorsAll scans every master for pending-balance keys.
func (l *Ledger) PendingInstructorsAll(ctx context.Context) ([]string, error) {
	// case E72: none
	pattern := l.cfg.Namespace.Join("payout", "*", "pending")
	cc, ok := l.rdb.(*redis.ClusterClient)
	if !ok {
		return l.rdb.Keys(ctx, pattern).Result()
	}
	found := make(chan []string, 16)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		var out []string
		iter := node.Scan(ctx, 0, pattern, 100).Iterator()
		for iter.Next(ctx) {
			out = append(out, iter.Val())
		}
		found <- out
		return iter.Err()
	})
	close(found)
	var all []string
	for ks := range found {
		all = append(all, ks...)
	}
	slices.Sort(all)
	return all, err
}

// PendingTotals reads several instructors' pending balances for the finance dashboard.
func (l *Ledger) PendingTotals(ctx context.Context, instructors iter.Seq[ids.InstructorID]) (map[string]string, error) {
	// case E73: crossslot
	ks := keys.Collect(instructors, func(i ids.InstructorID) string { return l.of(i, "pending") })
	vals, err := l.rdb.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ks))
	for n, v := range vals {
		if s, ok := v.(string); ok {
			out[ks[n]] = s
		}
	}
	return out, nil
}

// PendingTotalsEach reads the balances with one GET a key, pipelined.
func (l *Ledger) PendingTotalsEach(ctx context.Context, instructors iter.Seq[ids.InstructorID]) (map[string]string, error) {
	// case E74: none
	cmds := map[string]*redis.StringCmd{}
	_, err := l.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range instructors {
			k := l.of(i, "pending")
			cmds[k] = p.Get(ctx, k)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make(map[string]string, len(cmds))
	for _, k := range slices.Sorted(maps.Keys(cmds)) {
		if v, err := cmds[k].Result(); err == nil {
			out[k] = v
		}
	}
	return out, nil
}

// MergeInstructors folds a duplicate instructor account into the kept one.
func (l *Ledger) MergeInstructors(ctx context.Context, keep, dup ids.InstructorID) error {
	// case E75: crossslot
	from, to := l.of(dup, "pending"), l.of(keep, "pending")
	return l.rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, from).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.IncrBy(ctx, to, n)
			p.Del(ctx, from)
			return nil
		})
		return err
	}, from, to)
}

// Adjust corrects an instructor's pending balance, logging the correction.
func (l *Ledger) Adjust(ctx context.Context, i ids.InstructorID, delta int64, reason string) error {
	// case E76: none
	pending := l.of(i, "pending")
	return l.rdb.Watch(ctx, func(tx *redis.Tx) error {
		n, err := tx.Get(ctx, pending).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if n+delta < 0 {
			return fmt.Errorf("payouts: adjustment leaves %d", n+delta)
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, pending, strconv.FormatInt(n+delta, 10), 0)
			p.RPush(ctx, l.of(i, "ledger"), "adjust:"+reason)
			return nil
		})
		return err
	}, pending)
}
