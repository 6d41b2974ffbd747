// Package orders places orders and moves them through their states.
package orders

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/dine/internal/keys"
)

type Status string

const (
	Placed    Status = "placed"
	Accepted  Status = "accepted"
	PickedUp  Status = "picked_up"
	Delivered Status = "delivered"
)

type Order struct {
	ID         keys.OrderID
	User       keys.UserID
	Restaurant keys.RestaurantID
	Total      int64 // cents
	PlacedAt   time.Time
}

type Config struct {
	// ReceiptPrefix namespaces receipt keys, e.g. "dine:".
	ReceiptPrefix string
}

type Repo struct {
	rdb *redis.ClusterClient
	cfg Config
}

func NewRepo(rdb *redis.ClusterClient, cfg Config) *Repo {
	return &Repo{rdb: rdb, cfg: cfg}
}

func (o Order) fields() map[string]any {
	return map[string]any{
		"user":       string(o.User),
		"restaurant": string(o.Restaurant),
		"total":      o.Total,
		"placed_at":  o.PlacedAt.Unix(),
		"status":     string(Placed),
	}
}

// Place stores an order, indexes it under its user and queues it at the
// restaurant, all or nothing.
func (r *Repo) Place(ctx context.Context, o Order) error {
	// case H29: crossslot
	_, err := r.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, keys.Order(o.ID), o.fields())
		pipe.ZAdd(ctx, keys.UserOrders(o.User), redis.Z{Score: float64(o.PlacedAt.Unix()), Member: string(o.ID)})
		pipe.LPush(ctx, keys.Rest(o.Restaurant, "queue"), string(o.ID))
		return nil
	})
	return err
}

// PlaceBatched does the same writes in a plain pipeline: each write is on
// its own, and a replay of Place is idempotent.
func (r *Repo) PlaceBatched(ctx context.Context, o Order) error {
	// case H30: none
	_, err := r.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, keys.Order(o.ID), o.fields())
		pipe.ZAdd(ctx, keys.UserOrders(o.User), redis.Z{Score: float64(o.PlacedAt.Unix()), Member: string(o.ID)})
		pipe.LPush(ctx, keys.Rest(o.Restaurant, "queue"), string(o.ID))
		return nil
	})
	return err
}

var ErrBadTransition = errors.New("orders: status changed meanwhile")

// PickUp marks an order picked up and the courier active.
func (r *Repo) PickUp(ctx context.Context, id keys.OrderID, courier keys.CourierID) error {
	// case H31: crossslot
	sk := keys.OrderField(id, "status")
	return r.rdb.Watch(ctx, func(tx *redis.Tx) error {
		st, err := tx.Get(ctx, sk).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if st != "" && Status(st) != Accepted {
			return ErrBadTransition
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, sk, string(PickedUp), 0)
			pipe.Set(ctx, keys.CourierPart(courier, "active"), string(id), time.Hour)
			return nil
		})
		return err
	}, sk)
}

// Deliver marks an order delivered and appends to its history.
func (r *Repo) Deliver(ctx context.Context, id keys.OrderID) error {
	// case H32: none
	sk, hk := keys.OrderField(id, "status"), keys.OrderField(id, "history")
	return r.rdb.Watch(ctx, func(tx *redis.Tx) error {
		st, err := tx.Get(ctx, sk).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if st != "" && Status(st) != PickedUp {
			return ErrBadTransition
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, sk, string(Delivered), 0)
			pipe.RPush(ctx, hk, fmt.Sprintf("%s@%d", Delivered, time.Now().Unix()))
			pipe.HSet(ctx, keys.Order(id), "status", string(Delivered))
			return nil
		})
		return err
	}, sk, keys.Order(id))
}

var acceptScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('LREM', KEYS[2], 1, ARGV[3])
return 1
`)

// Accept moves a placed order out of the restaurant's queue.
func (r *Repo) Accept(ctx context.Context, o Order) (bool, error) {
	// case H33: crossslot
	n, err := acceptScript.Run(ctx, r.rdb,
		[]string{keys.OrderField(o.ID, "status"), keys.Rest(o.Restaurant, "queue")},
		string(Placed), string(Accepted), string(o.ID)).Int()
	return n == 1, err
}

var acceptEventScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[2] .. '@' .. ARGV[3])
return 1
`)

// AcceptWithEvent accepts an order and records the event on the order.
func (r *Repo) AcceptWithEvent(ctx context.Context, id keys.OrderID) (bool, error) {
	// case H34: none
	n, err := acceptEventScript.Run(ctx, r.rdb,
		[]string{keys.OrderField(id, "status"), keys.OrderField(id, "events")},
		string(Placed), string(Accepted), time.Now().Unix()).Int()
	return n == 1, err
}

var acceptCountScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('INCR', 'stats:orders:accepted')
return 1
`)

// AcceptCounted accepts and counts accepted orders in the same script.
func (r *Repo) AcceptCounted(ctx context.Context, id keys.OrderID) (bool, error) {
	// case H35: scriptslot
	n, err := acceptCountScript.Run(ctx, r.rdb,
		[]string{keys.OrderField(id, "status")},
		string(Placed), string(Accepted)).Int()
	return n == 1, err
}

var acceptDequeueScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('LREM', ARGV[3], 1, ARGV[4])
return 1
`)

// AcceptDequeue accepts an order and removes it from the queue it names.
func (r *Repo) AcceptDequeue(ctx context.Context, o Order) (bool, error) {
	// case H36: undeclaredkey
	n, err := acceptDequeueScript.Run(ctx, r.rdb,
		[]string{keys.OrderField(o.ID, "status")},
		string(Placed), string(Accepted), keys.Rest(o.Restaurant, "queue"), string(o.ID)).Int()
	return n == 1, err
}

// AcceptAndCount runs the accept script, then counts outside of it.
func (r *Repo) AcceptAndCount(ctx context.Context, id keys.OrderID) (bool, error) {
	// case H37: none
	n, err := acceptEventScript.Run(ctx, r.rdb,
		[]string{keys.OrderField(id, "status"), keys.OrderField(id, "events")},
		string(Placed), string(Accepted), time.Now().Unix()).Int()
	if err != nil || n == 0 {
		return false, err
	}
	return true, r.rdb.Incr(ctx, keys.StatsAccepted).Err()
}

// Reassign moves a queued order to another restaurant of the same brand.
func (r *Repo) Reassign(ctx context.Context, from, to keys.RestaurantID) (string, error) {
	// case H38: crossslot
	return r.rdb.LMove(ctx, keys.Rest(from, "queue"), keys.Rest(to, "queue"), "RIGHT", "LEFT").Result()
}

// StartNext moves the oldest queued order to the kitchen's in-progress list.
func (r *Repo) StartNext(ctx context.Context, rest keys.RestaurantID) (string, error) {
	// case H39: none
	id, err := r.rdb.LMove(ctx, keys.Rest(rest, "queue"), keys.Rest(rest, "in-progress"), "RIGHT", "LEFT").Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return id, err
}

// History returns the statuses of a user's latest orders.
func (r *Repo) History(ctx context.Context, u keys.UserID, n int64) ([]any, error) {
	// case H40: crossslot
	ids, err := r.rdb.ZRevRange(ctx, keys.UserOrders(u), 0, n-1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	ks := make([]string, len(ids))
	for i, id := range ids {
		ks[i] = keys.OrderField(keys.OrderID(id), "status")
	}
	return r.rdb.MGet(ctx, ks...).Result()
}

// HistoryPipelined is History with one GET per order.
func (r *Repo) HistoryPipelined(ctx context.Context, u keys.UserID, n int64) ([]string, error) {
	// case H41: none
	ids, err := r.rdb.ZRevRange(ctx, keys.UserOrders(u), 0, n-1).Result()
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	pipe := r.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.Get(ctx, keys.OrderField(keys.OrderID(id), "status"))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// ArchiveLegacy moves a finished order under the archive namespace.
func (r *Repo) ArchiveLegacy(ctx context.Context, id keys.OrderID) error {
	// case H42: crossslot
	return r.rdb.Rename(ctx, keys.Order(id), keys.ArchivedOrder(id)).Err()
}

// Archive moves a finished order to its archived key, on its own slot.
func (r *Repo) Archive(ctx context.Context, id keys.OrderID) error {
	// case H43: none
	return r.rdb.Rename(ctx, keys.Order(id), keys.OrderField(id, "archived")).Err()
}

// SaveReceipt stores a receipt's text and its rendered PDF together.
func (r *Repo) SaveReceipt(ctx context.Context, id keys.OrderID, text string, pdf []byte) error {
	// case H44: crossslot
	k := keys.Receipt(r.cfg.ReceiptPrefix, id)
	return r.rdb.MSet(ctx, k, text, k+":pdf", pdf).Err()
}
