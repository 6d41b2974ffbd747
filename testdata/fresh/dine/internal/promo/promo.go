// Package promo runs promotions and coupons. It was written against
// go-redis and now runs on rueidis through its go-redis-compatible adapter.
package promo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/rueidis/rueidiscompat"

	"example.com/dine/internal/keys"
)

var ErrExhausted = errors.New("promo: coupon exhausted")

type Engine struct {
	kv rueidiscompat.Cmdable
	// stale lists keys of retired campaigns, from configuration.
	stale []string
}

type Option func(*Engine)

// WithStaleKeys gives the keys Cleanup removes.
func WithStaleKeys(ks []string) Option { return func(e *Engine) { e.stale = ks } }

func New(kv rueidiscompat.Cmdable, opts ...Option) *Engine {
	e := &Engine{kv: kv}
	for _, o := range opts {
		o(e)
	}
	return e
}

// RedeemLegacy takes one use of a coupon and records who used it.
func (e *Engine) RedeemLegacy(ctx context.Context, code keys.CouponCode, u keys.UserID) error {
	// case H59: crossslot
	cmds, err := e.kv.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Decr(ctx, keys.CouponLeft(code))
		p.SAdd(ctx, keys.CouponUsed(code), string(u))
		return nil
	})
	if err != nil {
		return err
	}
	if left, _ := cmds[0].(*rueidiscompat.IntCmd).Result(); left < 0 {
		return ErrExhausted
	}
	return nil
}

// Redeem is RedeemLegacy on the coupon-tagged keys.
func (e *Engine) Redeem(ctx context.Context, code keys.CouponCode, u keys.UserID) error {
	// case H60: none
	c := keys.Coupon(code)
	cmds, err := e.kv.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Decr(ctx, c.Key("left"))
		p.SAdd(ctx, c.Key("used"), string(u))
		return nil
	})
	if err != nil {
		return err
	}
	if left, _ := cmds[0].(*rueidiscompat.IntCmd).Result(); left < 0 {
		return ErrExhausted
	}
	return nil
}

// RedeemToWallet takes one use and puts the coupon in the user's wallet.
func (e *Engine) RedeemToWallet(ctx context.Context, code keys.CouponCode, u keys.UserID) error {
	// case H61: crossslot
	_, err := e.kv.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Decr(ctx, keys.Coupon(code).Key("left"))
		p.SAdd(ctx, keys.Wallet(u), string(code))
		return nil
	})
	return err
}

// RedeemChecked takes one use only while some are left.
func (e *Engine) RedeemChecked(ctx context.Context, code keys.CouponCode, u keys.UserID) error {
	// case H62: none
	c := keys.Coupon(code)
	left, used := c.Key("left"), c.Key("used")
	return e.kv.Watch(ctx, func(tx rueidiscompat.Tx) error {
		n, err := tx.Get(ctx, left).Int64()
		if err != nil && !errors.Is(err, rueidiscompat.Nil) {
			return err
		}
		if n <= 0 {
			return ErrExhausted
		}
		_, err = tx.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
			p.Decr(ctx, left)
			p.SAdd(ctx, used, string(u))
			return nil
		})
		return err
	}, left)
}

// Active lists the promotions shown on a restaurant's page.
func (e *Engine) Active(ctx context.Context, r keys.RestaurantID) ([]string, error) {
	// case H63: crossslot
	return e.kv.SUnion(ctx, keys.PromoGlobal, keys.PromoRest(r)).Result()
}

// ActiveOwn lists the restaurant's own and featured promotions.
func (e *Engine) ActiveOwn(ctx context.Context, r keys.RestaurantID) ([]string, error) {
	// case H64: none
	return e.kv.SUnion(ctx, keys.PromoOf(r, "own"), keys.PromoOf(r, "featured")).Result()
}

// IssuePair issues two partner coupons with the same stock.
func (e *Engine) IssuePair(ctx context.Context, a, b keys.CouponCode, stock int) error {
	// case H65: crossslot
	return e.kv.MSet(ctx, keys.CouponLeft(a), stock, keys.CouponLeft(b), stock).Err()
}

// Issue issues a coupon with its stock and per-user limit.
func (e *Engine) Issue(ctx context.Context, code keys.CouponCode, stock, perUser int) error {
	// case H66: none
	c := keys.Coupon(code)
	return e.kv.MSet(ctx, c.Key("left"), stock, c.Key("limit"), perUser).Err()
}

// Cleanup removes the keys of retired campaigns.
func (e *Engine) Cleanup(ctx context.Context) (int64, error) {
	// case H67: crossslot?
	if len(e.stale) == 0 {
		return 0, nil
	}
	return e.kv.Del(ctx, e.stale...).Result()
}

// WeeklyActive folds a promotion's daily redemption bitmaps into one.
func (e *Engine) WeeklyActive(ctx context.Context, promo keys.RestaurantID, now time.Time) (int64, error) {
	// case H68: none
	var days []string
	for d := range keys.Days(now, 7) {
		days = append(days, keys.PromoOf(promo, "day:"+d.Format("2006-01-02")))
	}
	return e.kv.BitOpOr(ctx, keys.PromoOf(promo, "week"), days...).Result()
}

// RedeemedThisWeek folds the global daily redemption bitmaps.
func (e *Engine) RedeemedThisWeek(ctx context.Context, now time.Time) (int64, error) {
	// case H69: crossslot
	var days []string
	for d := range keys.Days(now, 7) {
		days = append(days, keys.RedeemedOn(d))
	}
	return e.kv.BitOpOr(ctx, "redeemed:week", days...).Result()
}

// Reach estimates unique visitors of a restaurant's promos over two days.
func (e *Engine) Reach(ctx context.Context, r keys.RestaurantID, day time.Time) (int64, error) {
	// case H70: none
	yesterday := day.AddDate(0, 0, -1)
	dst := keys.PromoOf(r, "reach:"+day.Format("2006-01-02"))
	if err := e.kv.PFMerge(ctx, dst,
		keys.PromoOf(r, fmt.Sprintf("visitors:%s", day.Format("2006-01-02"))),
		keys.PromoOf(r, fmt.Sprintf("visitors:%s", yesterday.Format("2006-01-02")))).Err(); err != nil {
		return 0, err
	}
	return e.kv.PFCount(ctx, dst).Result()
}
