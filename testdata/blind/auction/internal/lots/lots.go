// Package lots owns the live state of a lot: its metadata, current high bid,
// end time and reserve.
package lots

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// Lot is what the catalogue team hands us when a lot goes live.
type Lot struct {
	ID       keys.LotID
	Title    string
	Seller   keys.SellerID
	Opening  int64 // cents
	Reserve  int64 // cents, 0 = no reserve
	EndsAt   time.Time
	Category string
}

// Snapshot is the hot state of a lot as shown on the lot page.
type Snapshot struct {
	Meta  string
	High  int64
	Ends  time.Time
	State string
}

// Store reads and writes lot state.
type Store struct {
	rdb redis.UniversalClient
}

func NewStore(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

func parseCents(v any) int64 {
	s, _ := v.(string)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// Open puts a lot live.
func (s *Store) Open(ctx context.Context, l Lot) error {
	// case B3: none
	k := keys.ForLot(l.ID)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, k.Meta, l.Title, 0)
		p.Set(ctx, k.High, l.Opening, 0)
		p.Set(ctx, k.Ends, l.EndsAt.UnixMilli(), 0)
		p.Set(ctx, k.State, "open", 0)
		return nil
	})
	return err
}

// OpenAndIndex puts a lot live and adds it to the "closing soon" index in the
// same transaction.
func (s *Store) OpenAndIndex(ctx context.Context, l Lot) error {
	// case B4: crossslot
	k := keys.ForLot(l.ID)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, k.Meta, l.Title, 0)
		p.Set(ctx, k.High, l.Opening, 0)
		p.Set(ctx, k.Ends, l.EndsAt.UnixMilli(), 0)
		p.Set(ctx, k.State, "open", 0)
		p.ZAdd(ctx, keys.OpenLots, redis.Z{Score: float64(l.EndsAt.UnixMilli()), Member: l.ID.String()})
		return nil
	})
	return err
}

// Snapshot reads the hot state of one lot in one round trip.
func (s *Store) Snapshot(ctx context.Context, id keys.LotID) (Snapshot, error) {
	// case B1: none
	k := keys.ForLot(id)
	vals, err := s.rdb.MGet(ctx, k.Meta, k.High, k.Ends, k.State).Result()
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{High: parseCents(vals[1]), State: fmt.Sprint(vals[3])}
	snap.Meta, _ = vals[0].(string)
	snap.Ends = time.UnixMilli(parseCents(vals[2]))
	return snap, nil
}

// PriceWithRating feeds the lot card: current price and the seller's rating.
func (s *Store) PriceWithRating(ctx context.Context, id keys.LotID, seller keys.SellerID) (int64, string, error) {
	// case B2: crossslot
	vals, err := s.rdb.MGet(ctx, id.High(), seller.Rating()).Result()
	if err != nil {
		return 0, "", err
	}
	rating, _ := vals[1].(string)
	return parseCents(vals[0]), rating, nil
}

// PromoteDraft makes the edited draft description the live one.
func (s *Store) PromoteDraft(ctx context.Context, id keys.LotID) error {
	// case B5: none
	return s.rdb.Rename(ctx, id.Draft(), id.Meta()).Err()
}

// Relist carries the watchers of an unsold lot over to its relisting.
func (s *Store) Relist(ctx context.Context, from, to keys.LotID) error {
	// case B6: crossslot
	err := s.rdb.Rename(ctx, from.Watchers(), to.Watchers()).Err()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}

// Purge removes every key of a closed lot.
func (s *Store) Purge(ctx context.Context, id keys.LotID) (int64, error) {
	// case B7: none
	return s.rdb.Del(ctx, keys.ForLot(id).All()...).Result()
}

// Archive drops the metadata of lots moved to the cold archive.
func (s *Store) Archive(ctx context.Context, ids ...keys.LotID) (int64, error) {
	// case B8: crossslot?
	ks := make([]string, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, id.Meta())
	}
	return s.rdb.Del(ctx, ks...).Result()
}

// Prices returns the current high bid of many lots.
func (s *Store) Prices(ctx context.Context, ids ...keys.LotID) (map[keys.LotID]int64, error) {
	// case B9: none
	cmds := make(map[keys.LotID]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			cmds[id] = p.Get(ctx, id.High())
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make(map[keys.LotID]int64, len(ids))
	for id, c := range cmds {
		n, _ := c.Int64()
		out[id] = n
	}
	return out, nil
}

// SetReserve stores the hidden reserve price.
func (s *Store) SetReserve(ctx context.Context, id keys.LotID, cents int64) error {
	return s.rdb.Set(ctx, keys.ReserveKey(id), cents, 0).Err()
}

var meetsReserve = redis.NewScript(`
local high = tonumber(redis.call('GET', KEYS[1]) or '0')
local reserve = tonumber(redis.call('GET', KEYS[2]) or '0')
if high >= reserve then return 1 end
return 0
`)

// MeetsReserve tells the auctioneer console whether the hammer can fall.
func (s *Store) MeetsReserve(ctx context.Context, id keys.LotID) (bool, error) {
	// case B10: crossslot, unclosedtag
	n, err := meetsReserve.Run(ctx, s.rdb, []string{id.High(), keys.ReserveKey(id)}).Int()
	return n == 1, err
}

// ReserveStatus returns high bid and reserve for the seller dashboard.
func (s *Store) ReserveStatus(ctx context.Context, id keys.LotID) (high, reserve int64, err error) {
	// case B11: none
	var h, r *redis.StringCmd
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		h = p.Get(ctx, id.High())
		r = p.Get(ctx, keys.ReserveKey(id))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, 0, err
	}
	high, _ = h.Int64()
	reserve, _ = r.Int64()
	return high, reserve, nil
}
