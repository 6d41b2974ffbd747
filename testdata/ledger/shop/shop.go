// Package shop is a service whose methods take the ids of a request.
package shop

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

type Shop struct {
	rdb *redis.ClusterClient
	rc  rueidis.Client
}

func New(rdb *redis.ClusterClient, rc rueidis.Client) *Shop { return &Shop{rdb: rdb, rc: rc} }

func wishlist(user string) string { return "wishlist:" + user }

// MergeWishlist adds a guest's wishlist to the user's who signed in.
func (s *Shop) MergeWishlist(ctx context.Context, guest, user string) error {
	return s.rdb.SUnionStore(ctx, wishlist(user), wishlist(user), wishlist(guest)).Err()
}

// MergeWishlistFixed reads the guest's list and adds it to the user's.
func (s *Shop) MergeWishlistFixed(ctx context.Context, guest, user string) error {
	items, err := s.rdb.SMembers(ctx, wishlist(guest)).Result()
	if err != nil || len(items) == 0 {
		return err
	}
	return s.rdb.SAdd(ctx, wishlist(user), items).Err()
}

// Checkout turns the user's cart into an order: tagged, but by two ids.
func (s *Shop) Checkout(ctx context.Context, user string, order int64) error {
	return s.rdb.Rename(ctx, "cart:{"+user+"}:items", fmt.Sprintf("order:{%d}:items", order)).Err()
}

// CheckoutFixed keeps the order under the user's tag.
func (s *Shop) CheckoutFixed(ctx context.Context, user string, order int64) error {
	return s.rdb.Rename(ctx, "cart:{"+user+"}:items", fmt.Sprintf("order:{%s}:%d:items", user, order)).Err()
}

// Cancel marks an order cancelled and counts it for its user, in one
// transaction.
func (s *Shop) Cancel(ctx context.Context, id int64, user string) error {
	pipe := s.rdb.TxPipeline()
	pipe.Set(ctx, "order:"+strconv.FormatInt(id, 10)+":state", "cancelled", 0)
	pipe.Incr(ctx, "user:"+user+":cancelled")
	_, err := pipe.Exec(ctx)
	return err
}

// CancelFixed keeps both keys under the user's tag.
func (s *Shop) CancelFixed(ctx context.Context, id int64, user string) error {
	pipe := s.rdb.TxPipeline()
	pipe.Set(ctx, "user:{"+user+"}:order:"+strconv.FormatInt(id, 10)+":state", "cancelled", 0)
	pipe.Incr(ctx, "user:{"+user+"}:cancelled")
	_, err := pipe.Exec(ctx)
	return err
}

// Follow records that a follows b, atomically.
func (s *Shop) Follow(ctx context.Context, a, b string) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, "following:"+a, b)
		p.SAdd(ctx, "followers:"+b, a)
		return nil
	})
	return err
}

// FollowFixed sends the two writes in a plain pipeline, which the cluster
// client splits per node.
func (s *Shop) FollowFixed(ctx context.Context, a, b string) error {
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, "following:"+a, b)
		p.SAdd(ctx, "followers:"+b, a)
		return nil
	})
	return err
}

// Reserve holds stock for an order while the stock does not change.
func (s *Shop) Reserve(ctx context.Context, sku, order string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Decr(ctx, "stock:"+sku)
			p.Set(ctx, "hold:"+order, sku, 0)
			return nil
		})
		return err
	}, "stock:"+sku)
}

// ReserveFixed keeps the hold under the item's tag.
func (s *Shop) ReserveFixed(ctx context.Context, sku, order string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Decr(ctx, "stock:{"+sku+"}")
			p.Set(ctx, "stock:{"+sku+"}:hold:"+order, sku, 0)
			return nil
		})
		return err
	}, "stock:{"+sku+"}")
}

// Archive moves a cart away in the background and reports how it went.
func (s *Shop) Archive(ctx context.Context, from, to string) error {
	done := make(chan error, 1)
	go func() { done <- s.rdb.Rename(ctx, "cart:"+from, "cart:"+to).Err() }()
	return <-done
}

// ArchiveFixed renames within one user's tag.
func (s *Shop) ArchiveFixed(ctx context.Context, user string) error {
	done := make(chan error, 1)
	go func() { done <- s.rdb.Rename(ctx, "cart:{"+user+"}", "cart:{"+user+"}:archived").Err() }()
	return <-done
}

// Purge unlinks two temporary keys through a method value.
func (s *Shop) Purge(ctx context.Context, a, b string) error {
	unlink := s.rdb.Unlink
	return unlink(ctx, "tmp:"+a, "tmp:"+b).Err()
}

// PurgeFixed unlinks them one at a time.
func (s *Shop) PurgeFixed(ctx context.Context, a, b string) error {
	unlink := s.rdb.Unlink
	if err := unlink(ctx, "tmp:"+a).Err(); err != nil {
		return err
	}
	return unlink(ctx, "tmp:"+b).Err()
}

// MoveStock renames one item's stock key to another's, with rueidis.
func (s *Shop) MoveStock(ctx context.Context, from, to string) error {
	return s.rc.Do(ctx, s.rc.B().Rename().Key("inventory:"+from).Newkey("inventory:"+to).Build()).Error()
}

// MoveStockFixed renames within one item's tag.
func (s *Shop) MoveStockFixed(ctx context.Context, sku string) error {
	return s.rc.Do(ctx, s.rc.B().Rename().Key("inventory:{"+sku+"}").Newkey("inventory:{"+sku+"}:old").Build()).Error()
}
