// Package bids is the bid book: placing, retracting and awarding bids.
package bids

import (
	"context"
	"errors"
	"strconv"

	"github.com/redis/rueidis"

	"example.com/auction/internal/keys"
)

// ErrTooLow is returned when a bid does not beat the current high bid.
var ErrTooLow = errors.New("bids: bid too low")

// ErrBanned is returned for bidders on the ban list.
var ErrBanned = errors.New("bids: bidder banned")

// Book is the bid book.
type Book struct {
	rc rueidis.Client
}

func NewBook(rc rueidis.Client) *Book { return &Book{rc: rc} }

// KEYS: high, bids, leader ; ARGV: bidder, amount
var place = rueidis.NewLuaScript(`
local high = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[2])
if amount <= high then return 0 end
redis.call('SET', KEYS[1], amount)
redis.call('ZADD', KEYS[2], amount, ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
return 1
`)

func amountArg(cents int64) string { return strconv.FormatInt(cents, 10) }

// Place records a bid if it beats the current high bid.
func (b *Book) Place(ctx context.Context, id keys.LotID, bidder keys.BidderID, cents int64) error {
	// case B48: none
	n, err := place.Exec(ctx, b.rc, []string{id.High(), id.Bids(), id.Leader()},
		[]string{bidder.String(), amountArg(cents)}).AsInt64()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrTooLow
	}
	return nil
}

// KEYS: high, bids, credit ; ARGV: bidder, amount
var placeOnCredit = rueidis.NewLuaScript(`
local credit = tonumber(redis.call('GET', KEYS[3]) or '0')
local amount = tonumber(ARGV[2])
if amount > credit then return -1 end
local high = tonumber(redis.call('GET', KEYS[1]) or '0')
if amount <= high then return 0 end
redis.call('SET', KEYS[1], amount)
redis.call('ZADD', KEYS[2], amount, ARGV[1])
return 1
`)

// PlaceOnCredit checks the bidder's credit line in the same script.
func (b *Book) PlaceOnCredit(ctx context.Context, id keys.LotID, bidder keys.BidderID, cents int64) error {
	// case B49: crossslot
	n, err := placeOnCredit.Exec(ctx, b.rc, []string{id.High(), id.Bids(), bidder.Credit()},
		[]string{bidder.String(), amountArg(cents)}).AsInt64()
	if err != nil {
		return err
	}
	switch n {
	case -1:
		return errors.New("bids: over credit limit")
	case 0:
		return ErrTooLow
	}
	return nil
}

// KEYS: high, bids ; ARGV: bidder, amount, ban key
var placeUnlessBanned = rueidis.NewLuaScript(`
if redis.call('EXISTS', ARGV[3]) == 1 then return -1 end
local high = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[2])
if amount <= high then return 0 end
redis.call('SET', KEYS[1], amount)
redis.call('ZADD', KEYS[2], amount, ARGV[1])
return 1
`)

// PlaceUnlessBanned refuses bids from banned bidders inside the script.
func (b *Book) PlaceUnlessBanned(ctx context.Context, id keys.LotID, bidder keys.BidderID, cents int64) error {
	// case B50: script
	n, err := placeUnlessBanned.Exec(ctx, b.rc, []string{id.High(), id.Bids()},
		[]string{bidder.String(), amountArg(cents), bidder.Banned()}).AsInt64()
	if err != nil {
		return err
	}
	switch n {
	case -1:
		return ErrBanned
	case 0:
		return ErrTooLow
	}
	return nil
}

// Entry is one line of a bid history.
type Entry struct {
	Bidder string
	Cents  int64
}

// Histories returns the top bids of many lots in one round trip per node.
func (b *Book) Histories(ctx context.Context, n int64, ids ...keys.LotID) (map[keys.LotID][]Entry, error) {
	// case B51: none
	cmds := make(rueidis.Commands, 0, len(ids))
	for _, id := range ids {
		cmds = append(cmds, b.rc.B().Zrange().Key(id.Bids()).Min("+inf").Max("-inf").Byscore().Rev().Limit(0, n).Withscores().Build())
	}
	out := make(map[keys.LotID][]Entry, len(ids))
	for i, res := range b.rc.DoMulti(ctx, cmds...) {
		zs, err := res.AsZScores()
		if err != nil {
			return nil, err
		}
		for _, z := range zs {
			out[ids[i]] = append(out[ids[i]], Entry{Bidder: z.Member, Cents: int64(z.Score)})
		}
	}
	return out, nil
}

// Compare returns the current high bids of two lots (the "compare" widget).
func (b *Book) Compare(ctx context.Context, x, y keys.LotID) (int64, int64, error) {
	// case B52: crossslot
	vals, err := b.rc.Do(ctx, b.rc.B().Mget().Key(x.High(), y.High()).Build()).ToArray()
	if err != nil {
		return 0, 0, err
	}
	a, _ := vals[0].AsInt64()
	c, _ := vals[1].AsInt64()
	return a, c, nil
}

// Retract removes a bidder's bid and resets the high bid, in MULTI/EXEC.
func (b *Book) Retract(ctx context.Context, id keys.LotID, bidder keys.BidderID, newHigh int64) error {
	// case B53: none
	return b.rc.Dedicated(func(d rueidis.DedicatedClient) error {
		res := d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Zrem().Key(id.Bids()).Member(bidder.String()).Build(),
			d.B().Set().Key(id.High()).Value(amountArg(newHigh)).Build(),
			d.B().Exec().Build(),
		)
		return res[len(res)-1].Error()
	})
}

// Award marks the lot sold and adds it to the winner's wins, in MULTI/EXEC.
func (b *Book) Award(ctx context.Context, id keys.LotID, winner keys.BidderID) error {
	// case B54: crossslot
	return b.rc.Dedicated(func(d rueidis.DedicatedClient) error {
		res := d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Set().Key(id.State()).Value("sold").Build(),
			d.B().Sadd().Key(winner.Wins()).Member(id.String()).Build(),
			d.B().Exec().Build(),
		)
		return res[len(res)-1].Error()
	})
}

// Join registers a bidder as active on a lot.
func (b *Book) Join(ctx context.Context, id keys.LotID, bidder keys.BidderID, prevRound bool) error {
	k := id.Bidders()
	if prevRound {
		k = id.PrevBidders()
	}
	return b.rc.Do(ctx, b.rc.B().Sadd().Key(k).Member(bidder.String()).Build()).Error()
}

// RepeatBidders counts bidders who were also active in the previous round.
func (b *Book) RepeatBidders(ctx context.Context, id keys.LotID) (int64, error) {
	// case B55: none
	return b.rc.Do(ctx, b.rc.B().Sintercard().Numkeys(2).Key(id.Bidders(), id.PrevBidders()).Build()).AsInt64()
}

// SharedBidders counts bidders active on both lots (cross-sell signal).
func (b *Book) SharedBidders(ctx context.Context, x, y keys.LotID) (int64, error) {
	// case B56: crossslot
	return b.rc.Do(ctx, b.rc.B().Sintercard().Numkeys(2).Key(x.Bidders(), y.Bidders()).Build()).AsInt64()
}
