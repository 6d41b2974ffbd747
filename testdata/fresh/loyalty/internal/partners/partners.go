// Package partners manages partner stores (fuel stations, pharmacies, a
// cinema chain) where members earn and burn points. The partner team came
// from a go-redis code base and uses valkey-go through its go-redis-compatible
// adapter.
package partners

import (
	"context"
	"strconv"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"

	"example.com/loyalty/internal/keys"
)

// Key builders, exported for the campaign package.

// Key is a partner's profile hash.
func Key(s keys.StoreID) string { return "partner:{" + string(s) + "}" }

// MembersKey is the set of members who shopped at the partner.
func MembersKey(s keys.StoreID) string { return Key(s) + ":members" }

// StatsKey is the partner's counters hash.
func StatsKey(s keys.StoreID) string { return Key(s) + ":stats" }

// PayableKey is the points value the chain owes the partner.
func PayableKey(s keys.StoreID) string { return Key(s) + ":payable" }

// PaidKey is the points value the chain already paid the partner.
func PaidKey(s keys.StoreID) string { return Key(s) + ":paid" }

// MemberStoresKey is the set of partners a member shopped at.
func MemberStoresKey(m keys.MemberID) string { return "member:{" + string(m) + "}:stores" }

// Registry is the partner repository.
type Registry struct {
	db valkeycompat.Cmdable
}

// NewRegistry returns a Registry.
func NewRegistry(db valkeycompat.Cmdable) *Registry { return &Registry{db: db} }

// Enroll records that a member shopped at a partner, on both sides.
func (r *Registry) Enroll(ctx context.Context, s keys.StoreID, m keys.MemberID) error {
	// case L47: crossslot
	_, err := r.db.TxPipelined(ctx, func(p valkeycompat.Pipeliner) error {
		p.SAdd(ctx, MembersKey(s), string(m))
		p.SAdd(ctx, MemberStoresKey(m), string(s))
		return nil
	})
	return err
}

// RecordVisit counts a member's visit at a partner.
func (r *Registry) RecordVisit(ctx context.Context, s keys.StoreID, m keys.MemberID, pts int64) error {
	// case L48: none
	_, err := r.db.TxPipelined(ctx, func(p valkeycompat.Pipeliner) error {
		p.SAdd(ctx, MembersKey(s), string(m))
		p.HIncrBy(ctx, StatsKey(s), "visits", 1)
		p.HIncrBy(ctx, StatsKey(s), "points", pts)
		p.IncrBy(ctx, PayableKey(s), pts)
		return nil
	})
	return err
}

// Sizes returns how many members each partner has.
func (r *Registry) Sizes(ctx context.Context, ss ...keys.StoreID) (map[keys.StoreID]int64, error) {
	// case L49: none
	cmds := make([]*valkeycompat.IntCmd, len(ss))
	_, err := r.db.Pipelined(ctx, func(p valkeycompat.Pipeliner) error {
		for i, s := range ss {
			cmds[i] = p.SCard(ctx, MembersKey(s))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[keys.StoreID]int64, len(ss))
	for i, c := range cmds {
		out[ss[i]] = c.Val()
	}
	return out, nil
}

// Settle marks what the chain owes a partner as paid.
func (r *Registry) Settle(ctx context.Context, s keys.StoreID) (int64, error) {
	// case L50: none
	var owed int64
	err := r.db.Watch(ctx, func(tx valkeycompat.Tx) error {
		v, err := tx.Get(ctx, PayableKey(s)).Result()
		if err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
		owed, _ = strconv.ParseInt(v, 10, 64)
		_, err = tx.TxPipelined(ctx, func(p valkeycompat.Pipeliner) error {
			p.Set(ctx, PayableKey(s), 0, 0)
			p.IncrBy(ctx, PaidKey(s), owed)
			return nil
		})
		return err
	}, PayableKey(s), PaidKey(s))
	return owed, err
}
