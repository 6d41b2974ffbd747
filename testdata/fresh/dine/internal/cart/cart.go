// Package cart keeps shopping carts on rueidis.
package cart

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"example.com/dine/internal/keys"
)

type Service struct {
	c       rueidis.Client
	idleTTL time.Duration
}

func New(c rueidis.Client, idleTTL time.Duration) *Service {
	return &Service{c: c, idleTTL: idleTTL}
}

type Line struct {
	DishID string
	Qty    int64
}

func firstErr(rs []rueidis.RedisResult) error {
	for _, r := range rs {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
	}
	return nil
}

// AddLegacy adds a line to a cart stored in the legacy layout.
func (s *Service) AddLegacy(ctx context.Context, u keys.UserID, l Line) error {
	// case H15: crossslot
	b := s.c.B()
	return firstErr(s.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Hincrby().Key(keys.CartLegacy(u)).Field(l.DishID).Increment(l.Qty).Build(),
		b.Hincrby().Key(keys.CartMetaLegacy(u)).Field("lines").Increment(1).Build(),
		b.Exec().Build(),
	))
}

// Add adds a line to a cart.
func (s *Service) Add(ctx context.Context, u keys.UserID, l Line) error {
	// case H16: none
	k := keys.Cart(u)
	b := s.c.B()
	return firstErr(s.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Hincrby().Key(k.Items).Field(l.DishID).Increment(l.Qty).Build(),
		b.Hincrby().Key(k.Meta).Field("lines").Increment(1).Build(),
		b.Expire().Key(k.Items).Seconds(int64(s.idleTTL/time.Second)).Build(),
		b.Exec().Build(),
	))
}

var mergeScript = rueidis.NewLuaScript(`
local lines = redis.call('HGETALL', KEYS[1])
for i = 1, #lines, 2 do
  redis.call('HINCRBY', KEYS[2], lines[i], lines[i+1])
end
redis.call('DEL', KEYS[1])
return #lines / 2
`)

// MergeGuest moves a guest's cart into the user's cart when they log in.
func (s *Service) MergeGuest(ctx context.Context, guest, user keys.UserID) (int64, error) {
	// case H17: crossslot
	return mergeScript.Exec(ctx, s.c, []string{keys.Cart(guest).Items, keys.Cart(user).Items}, nil).AsInt64()
}

// MergeGuestClient is MergeGuest done in the client, one slot per call.
func (s *Service) MergeGuestClient(ctx context.Context, guest, user keys.UserID) (int64, error) {
	// case H18: none
	from, to := keys.Cart(guest).Items, keys.Cart(user).Items
	lines, err := s.c.Do(ctx, s.c.B().Hgetall().Key(from).Build()).AsIntMap()
	if err != nil {
		return 0, err
	}
	if len(lines) == 0 {
		return 0, nil
	}
	cmds := make(rueidis.Commands, 0, len(lines)+1)
	for dish, qty := range lines {
		cmds = append(cmds, s.c.B().Hincrby().Key(to).Field(dish).Increment(qty).Build())
	}
	cmds = append(cmds, s.c.B().Del().Key(from).Build())
	return int64(len(lines)), firstErr(s.c.DoMulti(ctx, cmds...))
}

// FreezeForCheckout moves the cart's lines to the checkout key the payment
// service reads.
func (s *Service) FreezeForCheckout(ctx context.Context, u keys.UserID) error {
	// case H19: crossslot
	return s.c.Do(ctx, s.c.B().Rename().Key(keys.Cart(u).Items).Newkey(keys.CheckoutItems(u)).Build()).Error()
}

// Freeze moves the cart's lines to the cart's own checkout key.
func (s *Service) Freeze(ctx context.Context, u keys.UserID) error {
	// case H20: none
	k := keys.Cart(u)
	return s.c.Do(ctx, s.c.B().Rename().Key(k.Items).Newkey(k.Checkout).Build()).Error()
}

// AbandonedMeta loads the meta of carts the sweeper looks at.
func (s *Service) AbandonedMeta(ctx context.Context, users []keys.UserID) ([]string, error) {
	// case H21: crossslot
	cmd := s.c.B().Mget().Key()
	for _, u := range users {
		cmd = cmd.Key(keys.CartMetaLegacy(u))
	}
	return s.c.Do(ctx, cmd.Build()).AsStrSlice()
}

// AbandonedMetaEach is AbandonedMeta with one GET per cart.
func (s *Service) AbandonedMetaEach(ctx context.Context, users []keys.UserID) ([]string, error) {
	// case H22: none
	cmds := make(rueidis.Commands, 0, len(users))
	for _, u := range users {
		cmds = append(cmds, s.c.B().Get().Key(keys.CartMetaLegacy(u)).Build())
	}
	out := make([]string, 0, len(users))
	for _, r := range s.c.DoMulti(ctx, cmds...) {
		v, err := r.ToString()
		if err != nil && !rueidis.IsRedisNil(err) {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// ClearLegacy drops a legacy cart.
func (s *Service) ClearLegacy(ctx context.Context, u keys.UserID) error {
	// case H23: crossslot
	return s.c.Do(ctx, s.c.B().Del().Key(keys.CartLegacy(u), keys.CartMetaLegacy(u), keys.CartNotes(u)).Build()).Error()
}

// Clear drops a cart.
func (s *Service) Clear(ctx context.Context, u keys.UserID) error {
	// case H24: none
	k := keys.Cart(u)
	return s.c.Do(ctx, s.c.B().Del().Key(k.Items, k.Meta, k.Checkout).Build()).Error()
}

// PopularThisWeek folds the last seven daily "added to cart" counters of
// every restaurant into one weekly ranking.
func (s *Service) PopularThisWeek(ctx context.Context, now time.Time) error {
	// case H25: crossslot
	var src []string
	for d := range keys.Days(now, 7) {
		src = append(src, "popular:"+d.Format("20060102"))
	}
	cmd := s.c.B().Zunionstore().Destination("popular:week").Numkeys(int64(len(src))).Key(src...).Build()
	return s.c.Do(ctx, cmd).Error()
}

// PopularThisWeekAt is PopularThisWeek per restaurant, under its tag.
func (s *Service) PopularThisWeekAt(ctx context.Context, r keys.RestaurantID, now time.Time) error {
	// case H26: none
	var src []string
	for d := range keys.Days(now, 7) {
		src = append(src, keys.Rest(r, "popular:"+d.Format("20060102")))
	}
	cmd := s.c.B().Zunionstore().Destination(keys.Rest(r, "popular:week")).Numkeys(int64(len(src))).Key(src...).Build()
	return s.c.Do(ctx, cmd).Error()
}

// SavedForLater loads the carts a user parked; the set holds their keys.
func (s *Service) SavedForLater(ctx context.Context, u keys.UserID) ([]string, error) {
	// case H27: crossslot?
	parked, err := s.c.Do(ctx, s.c.B().Smembers().Key(keys.Cart(u).Saved).Build()).AsStrSlice()
	if err != nil || len(parked) == 0 {
		return nil, err
	}
	return s.c.Do(ctx, s.c.B().Mget().Key(parked...).Build()).AsStrSlice()
}

// SetQty sets a line's quantity unless the cart was frozen meanwhile.
func (s *Service) SetQty(ctx context.Context, u keys.UserID, l Line) error {
	// case H28: none
	k := keys.Cart(u)
	return s.c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key(k.Items, k.Checkout).Build()).Error(); err != nil {
			return err
		}
		n, err := d.Do(ctx, d.B().Exists().Key(k.Checkout).Build()).AsInt64()
		if err != nil {
			return err
		}
		if n > 0 {
			return d.Do(ctx, d.B().Unwatch().Build()).Error()
		}
		return firstErr(d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Hset().Key(k.Items).FieldValue().FieldValue(l.DishID, strconv.FormatInt(l.Qty, 10)).Build(),
			d.B().Hset().Key(k.Meta).FieldValue().FieldValue("updated", strconv.FormatInt(time.Now().Unix(), 10)).Build(),
			d.B().Exec().Build(),
		))
	})
}
