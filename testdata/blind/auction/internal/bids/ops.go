package bids

import (
	"context"
	"slices"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"

	"example.com/auction/internal/keys"
)

const readHighSrc = `return redis.call('GET', KEYS[1]) or '0'`

// Tools are the bid book's operational helpers.
type Tools struct {
	rc     rueidis.Client
	compat rueidiscompat.Cmdable
}

func NewTools(rc rueidis.Client) *Tools {
	return &Tools{rc: rc, compat: rueidiscompat.NewAdapter(rc)}
}

func (t *Tools) evalshaAll(ctx context.Context, sha string, ids []keys.LotID) ([]string, error) {
	cmds := make(rueidis.Commands, 0, len(ids))
	for _, id := range ids {
		cmds = append(cmds, t.rc.B().Evalsha().Sha1(sha).Numkeys(1).Key(id.High()).Build())
	}
	out := make([]string, 0, len(ids))
	for _, r := range t.rc.DoMulti(ctx, cmds...) {
		s, err := r.ToString()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// QuickHigh reads the high bid of many lots with a preloaded script.
func (t *Tools) QuickHigh(ctx context.Context, ids ...keys.LotID) ([]string, error) {
	// case B57: onenode
	sha, err := t.rc.Do(ctx, t.rc.B().ScriptLoad().Script(readHighSrc).Build()).ToString()
	if err != nil {
		return nil, err
	}
	return t.evalshaAll(ctx, sha, ids)
}

// QuickHighAllNodes loads the script on every node first.
func (t *Tools) QuickHighAllNodes(ctx context.Context, ids ...keys.LotID) ([]string, error) {
	// case B58: none
	var sha string
	for _, node := range t.rc.Nodes() {
		s, err := node.Do(ctx, node.B().ScriptLoad().Script(readHighSrc).Build()).ToString()
		if err != nil {
			return nil, err
		}
		sha = s
	}
	return t.evalshaAll(ctx, sha, ids)
}

// DebugKeys lists the keys of bid books for the support tool.
func (t *Tools) DebugKeys(ctx context.Context) ([]string, error) {
	// case B59: onenode
	ks, err := t.rc.Do(ctx, t.rc.B().Keys().Pattern("lot:*:bids").Build()).AsStrSlice()
	slices.Sort(ks)
	return ks, err
}

// DebugKeysCompat is DebugKeys through the go-redis compatible adapter.
func (t *Tools) DebugKeysCompat(ctx context.Context) ([]string, error) {
	// case B60: none
	ks, err := t.compat.Keys(ctx, "lot:*:bids").Result()
	slices.Sort(ks)
	return ks, err
}

// Quarantine parks a suspicious bidder in the fraud database (db 3), where
// the fraud team's tooling looks for it.
func (t *Tools) Quarantine(ctx context.Context, bidder keys.BidderID) error {
	// case B61: database
	return t.rc.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Select().Index(3).Build()).Error(); err != nil {
			return err
		}
		return d.Do(ctx, d.B().Sadd().Key(keys.Quarantine).Member(bidder.String()).Build()).Error()
	})
}

// SettleSale marks the lot paid and credits the seller's pending payout in
// one transaction, written with the go-redis style adapter.
func (t *Tools) SettleSale(ctx context.Context, id keys.LotID, seller keys.SellerID, cents int64) error {
	// case B64: crossslot
	_, err := t.compat.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Set(ctx, id.State(), "paid", 0)
		p.IncrBy(ctx, seller.Pending(), cents)
		return nil
	})
	return err
}

// MarkPaid marks the lot paid and records the payer, in one transaction.
func (t *Tools) MarkPaid(ctx context.Context, id keys.LotID, payer keys.BidderID) error {
	// case B65: none
	_, err := t.compat.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Set(ctx, id.State(), "paid", 0)
		p.HSet(ctx, id.Flags(), "paid_by", payer.String())
		return nil
	})
	return err
}
