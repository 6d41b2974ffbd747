// Package orders keeps carts and orders.
package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// Line is one cart or order line.
type Line struct {
	Event keyspace.EventID `json:"event"`
	Seat  keyspace.SeatID  `json:"seat"`
	Cents int64            `json:"cents"`
}

// Order is a paid cart.
type Order struct {
	ID     keyspace.OrderID `json:"id"`
	User   keyspace.UserID  `json:"user"`
	Lines  []Line           `json:"lines"`
	PaidAt time.Time        `json:"paid_at"`
}

// Store is the cart and order store.
type Store struct {
	rdb     redis.UniversalClient
	cartTTL time.Duration
}

// New returns a store.
func New(rdb redis.UniversalClient, cartTTL time.Duration) *Store {
	return &Store{rdb: rdb, cartTTL: cartTTL}
}

// Key helpers. Carts are per user and tagged by the user; orders were keyed
// by order id before the move to the cluster, and the new ones live under the
// user's tag.
func cartKey(u keyspace.UserID) string     { return keyspace.Cart.Tag(u) }
func historyKey(u keyspace.UserID) string  { return keyspace.User.Tag(u, "orders") }
func refundedKey(u keyspace.UserID) string { return keyspace.User.Tag(u, "refunded") }
func orderKey(id keyspace.OrderID) string  { return keyspace.Order.Key(id) }
func userOrderKey(u keyspace.UserID, id keyspace.OrderID) string {
	return keyspace.User.Tag(u, "order", id.String())
}

const refundQueue = "refunds:pending"

// AddToCart puts a line in a user's cart.
func (s *Store) AddToCart(ctx context.Context, u keyspace.UserID, l Line) error {
	b, _ := json.Marshal(l)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, cartKey(u), fmt.Sprintf("%d/%s", l.Event, l.Seat), b)
		p.Expire(ctx, cartKey(u), s.cartTTL)
		return nil
	})
	return err
}

func (s *Store) cartLines(ctx context.Context, c redis.Cmdable, u keyspace.UserID) ([]Line, error) {
	m, err := c.HGetAll(ctx, cartKey(u)).Result()
	if err != nil {
		return nil, err
	}
	lines := make([]Line, 0, len(m))
	for _, v := range m {
		var l Line
		if err := json.Unmarshal([]byte(v), &l); err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// Checkout turns the cart into an order: writes the order, empties the cart
// and appends to the user's history, atomically.
func (s *Store) Checkout(ctx context.Context, u keyspace.UserID, id keyspace.OrderID) (*Order, error) {
	// case T29: crossslot
	var o *Order
	err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		lines, err := s.cartLines(ctx, tx, u)
		if err != nil {
			return err
		}
		if len(lines) == 0 {
			return errors.New("orders: empty cart")
		}
		o = &Order{ID: id, User: u, Lines: lines, PaidAt: time.Now().UTC()}
		b, _ := json.Marshal(o)
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, orderKey(id), b, 0)
			p.Del(ctx, cartKey(u))
			p.LPush(ctx, historyKey(u), id.String())
			return nil
		})
		return err
	}, cartKey(u))
	return o, err
}

// CheckoutV2 is Checkout with the order stored under the user's tag.
func (s *Store) CheckoutV2(ctx context.Context, u keyspace.UserID, id keyspace.OrderID) (*Order, error) {
	// case T30: none
	var o *Order
	err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		lines, err := s.cartLines(ctx, tx, u)
		if err != nil {
			return err
		}
		if len(lines) == 0 {
			return errors.New("orders: empty cart")
		}
		o = &Order{ID: id, User: u, Lines: lines, PaidAt: time.Now().UTC()}
		b, _ := json.Marshal(o)
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, userOrderKey(u, id), b, 0)
			p.Del(ctx, cartKey(u))
			p.LPush(ctx, historyKey(u), id.String())
			return nil
		})
		return err
	}, cartKey(u), historyKey(u))
	return o, err
}

// MergeGuestCart moves a guest's cart into the user's after login, in one
// transaction.
func (s *Store) MergeGuestCart(ctx context.Context, guest, u keyspace.UserID) error {
	// case T31: crossslot
	lines, err := s.rdb.HGetAll(ctx, cartKey(guest)).Result()
	if err != nil || len(lines) == 0 {
		return err
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, cartKey(u), lines)
		p.Del(ctx, cartKey(guest))
		return nil
	})
	return err
}

// MergeGuestCartV2 writes the user's cart first and deletes the guest's
// afterwards; a retry re-merges the same lines, which is idempotent.
func (s *Store) MergeGuestCartV2(ctx context.Context, guest, u keyspace.UserID) error {
	// case T32: none
	lines, err := s.rdb.HGetAll(ctx, cartKey(guest)).Result()
	if err != nil || len(lines) == 0 {
		return err
	}
	if err := s.rdb.HSet(ctx, cartKey(u), lines).Err(); err != nil {
		return err
	}
	return s.rdb.Del(ctx, cartKey(guest)).Err()
}

// Recent loads a user's latest n orders (legacy order keys).
func (s *Store) Recent(ctx context.Context, u keyspace.UserID, n int64) ([]Order, error) {
	// case T33: crossslot?
	ids, err := s.rdb.LRange(ctx, historyKey(u), 0, n-1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		oid, _ := strconv.ParseInt(id, 10, 64)
		keys[i] = orderKey(keyspace.OrderID(oid))
	}
	vals, err := s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	return decodeOrders(vals), nil
}

// RecentV2 loads a user's latest n orders, stored under the user's tag.
func (s *Store) RecentV2(ctx context.Context, u keyspace.UserID, n int64) ([]Order, error) {
	// case T34: none
	ids, err := s.rdb.LRange(ctx, historyKey(u), 0, n-1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		oid, _ := strconv.ParseInt(id, 10, 64)
		keys[i] = userOrderKey(u, keyspace.OrderID(oid))
	}
	vals, err := s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	return decodeOrders(vals), nil
}

func decodeOrders(vals []any) []Order {
	out := make([]Order, 0, len(vals))
	for _, v := range vals {
		if str, ok := v.(string); ok {
			var o Order
			if json.Unmarshal([]byte(str), &o) == nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// Refund marks an order refunded in the user's lists.
func (s *Store) Refund(ctx context.Context, u keyspace.UserID, id keyspace.OrderID) error {
	// case T35: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.LRem(ctx, historyKey(u), 1, id.String())
		p.LPush(ctx, refundedKey(u), id.String())
		return nil
	})
	return err
}

// RequestRefund hands the user's latest order to the payments team's queue.
func (s *Store) RequestRefund(ctx context.Context, u keyspace.UserID) (string, error) {
	// case T36: crossslot
	return s.rdb.LMove(ctx, historyKey(u), refundQueue, "LEFT", "RIGHT").Result()
}

// RequestRefundV2 queues the refund without moving it out of the history.
func (s *Store) RequestRefundV2(ctx context.Context, u keyspace.UserID) (string, error) {
	// case T37: none
	id, err := s.rdb.LIndex(ctx, historyKey(u), 0).Result()
	if err != nil {
		return "", err
	}
	if err := s.rdb.RPush(ctx, refundQueue, u.String()+"/"+id).Err(); err != nil {
		return "", err
	}
	return id, nil
}

// Finalize renames the user's legacy order key to the per-user layout.
func (s *Store) Finalize(ctx context.Context, u keyspace.UserID, id keyspace.OrderID) error {
	// case T38: crossslot
	return s.rdb.RenameNX(ctx, orderKey(id), userOrderKey(u, id)).Err()
}

// Totals sums the cents of several users' carts (the checkout-rush banner).
func (s *Store) Totals(ctx context.Context, users ...keyspace.UserID) (map[keyspace.UserID]int64, error) {
	// case T39: none
	cmds := make(map[keyspace.UserID]*redis.MapStringStringCmd, len(users))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, u := range users {
			cmds[u] = p.HGetAll(ctx, cartKey(u))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[keyspace.UserID]int64, len(users))
	for u, c := range cmds {
		for _, v := range c.Val() {
			var l Line
			if json.Unmarshal([]byte(v), &l) == nil {
				out[u] += l.Cents
			}
		}
	}
	return out, nil
}
