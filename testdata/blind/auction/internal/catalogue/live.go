package catalogue

import (
	"context"
	"time"

	"github.com/redis/rueidis"

	"example.com/auction/internal/keys"
)

// Live reads hot lot fields with server-assisted client-side caching.
type Live struct {
	rc  rueidis.Client
	ttl time.Duration
}

func NewLive(rc rueidis.Client, ttl time.Duration) *Live { return &Live{rc: rc, ttl: ttl} }

// Card is what the lot tile shows.
type Card struct {
	High   string
	Ends   string
	Rating string
}

// Lookup reads the price and end time of a lot from the local cache.
func (l *Live) Lookup(ctx context.Context, id keys.LotID) (Card, error) {
	// case B45: none
	vals, err := l.rc.DoCache(ctx, l.rc.B().Mget().Key(id.High(), id.Ends()).Cache(), l.ttl).ToArray()
	if err != nil {
		return Card{}, err
	}
	var c Card
	c.High, _ = vals[0].ToString()
	c.Ends, _ = vals[1].ToString()
	return c, nil
}

// LookupWithSeller adds the seller's rating to the tile.
func (l *Live) LookupWithSeller(ctx context.Context, id keys.LotID, seller keys.SellerID) (Card, error) {
	// case B46: crossslot
	vals, err := l.rc.DoCache(ctx, l.rc.B().Mget().Key(id.High(), id.Ends(), seller.Rating()).Cache(), l.ttl).ToArray()
	if err != nil {
		return Card{}, err
	}
	var c Card
	c.High, _ = vals[0].ToString()
	c.Ends, _ = vals[1].ToString()
	c.Rating, _ = vals[2].ToString()
	return c, nil
}

// LookupMany reads the price of many lots; the helper splits by slot.
func (l *Live) LookupMany(ctx context.Context, ids ...keys.LotID) (map[keys.LotID]string, error) {
	// case B47: none
	ks := make([]string, len(ids))
	for i, id := range ids {
		ks[i] = id.High()
	}
	res, err := rueidis.MGetCache(l.rc, ctx, l.ttl, ks)
	if err != nil {
		return nil, err
	}
	out := make(map[keys.LotID]string, len(ids))
	for _, id := range ids {
		if m, ok := res[id.High()]; ok {
			out[id], _ = m.ToString()
		}
	}
	return out, nil
}
