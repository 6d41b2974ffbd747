// Package trips stores trip state, fares and history.
package trips

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fleet/internal/keys"
)

// Trip is a ride or a delivery.
type Trip struct {
	ID     keys.TripID
	Rider  keys.RiderID
	Driver keys.DriverID
	Cell   keys.CellID
}

// Store is the trip storage used by the dispatch and payment flows.
type Store interface {
	Start(ctx context.Context, t Trip) error
	StartV2(ctx context.Context, t Trip) error
	Complete(ctx context.Context, id keys.TripID, fare int64) error
	CompleteV2(ctx context.Context, t Trip, fare int64) error
	Cancel(ctx context.Context, t Trip) error
	Archive(ctx context.Context, id keys.TripID) error
	ArchiveV2(ctx context.Context, id keys.TripID) error
	Quote(ctx context.Context, id keys.TripID) (fare, surge string, err error)
}

// Client is the part of go-redis the trip store needs.
type Client interface {
	redis.Cmdable
	Watch(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error
}

// Options selects the key layout.
type Options struct {
	// HashTags puts the trip id in a hash tag ("trip:{42}:fare").
	HashTags bool
	// Prefix replaces "trip" in keys built by key().
	Prefix string
}

type redisStore struct {
	rdb  Client
	opts Options
}

// NewRedisStore returns a Store on rdb.
func NewRedisStore(rdb Client, opts Options) Store {
	if opts.Prefix == "" {
		opts.Prefix = "trip"
	}
	return &redisStore{rdb: rdb, opts: opts}
}

func (s *redisStore) key(id keys.TripID, part string) string {
	if s.opts.HashTags {
		return fmt.Sprintf("%s:{%d}:%s", s.opts.Prefix, id, part)
	}
	return fmt.Sprintf("%s:%d:%s", s.opts.Prefix, id, part)
}

func (s *redisStore) Start(ctx context.Context, t Trip) error {
	// case F15: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, keys.Trip(t.ID), "rider", string(t.Rider), "driver", string(t.Driver), "state", "started")
		p.SAdd(ctx, keys.RiderTrips(t.Rider), t.ID.String())
		p.Set(ctx, keys.DriverCurrentTrip(t.Driver), t.ID.String(), 0)
		return nil
	})
	return err
}

func (s *redisStore) StartV2(ctx context.Context, t Trip) error {
	// case F16: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, t.ID.Key("state"), "rider", string(t.Rider), "driver", string(t.Driver), "state", "started")
		p.XAdd(ctx, &redis.XAddArgs{Stream: t.ID.Key("events"), Values: map[string]any{"type": "started"}})
		return nil
	})
	if err != nil {
		return err
	}
	// Indexes live with their owners; they are rebuilt from the trip if this fails.
	if err := s.rdb.SAdd(ctx, t.Rider.Key("trips"), t.ID.String()).Err(); err != nil {
		return err
	}
	return s.rdb.Set(ctx, t.Driver.Key("current_trip"), t.ID.String(), 0).Err()
}

var errStateChanged = errors.New("trips: state changed")

func (s *redisStore) Complete(ctx context.Context, id keys.TripID, fare int64) error {
	// case F17: crossslot
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		st, err := tx.HGet(ctx, keys.Trip(id), "state").Result()
		if err != nil && err != redis.Nil {
			return err
		}
		if st == "completed" {
			return errStateChanged
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, keys.Trip(id), "state", "completed")
			p.Set(ctx, keys.TripFare(id), fare, 0)
			return nil
		})
		return err
	}, keys.Trip(id), keys.TripFare(id))
}

func (s *redisStore) CompleteV2(ctx context.Context, t Trip, fare int64) error {
	// case F18: none
	state, fareKey := t.ID.Key("state"), t.ID.Key("fare")
	err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		st, err := tx.HGet(ctx, state, "state").Result()
		if err != nil && err != redis.Nil {
			return err
		}
		if st == "completed" {
			return errStateChanged
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, state, "state", "completed")
			p.Set(ctx, fareKey, fare, 0)
			return nil
		})
		return err
	}, state, fareKey)
	if err != nil {
		return err
	}
	return s.rdb.Del(ctx, t.Driver.Key("current_trip")).Err()
}

func (s *redisStore) Cancel(ctx context.Context, t Trip) error {
	// case F19: crossslot
	state := t.ID.Key("state")
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, state, "state", "cancelled")
			p.Del(ctx, t.Driver.Key("current_trip"))
			return nil
		})
		return err
	}, state)
}

func (s *redisStore) Archive(ctx context.Context, id keys.TripID) error {
	// case F20: crossslot
	return s.rdb.Rename(ctx, keys.Trip(id), "trips:archive:"+id.String()).Err()
}

func (s *redisStore) ArchiveV2(ctx context.Context, id keys.TripID) error {
	// case F21: none
	return s.rdb.Rename(ctx, id.Key("state"), id.Key("archived")).Err()
}

func (s *redisStore) Quote(ctx context.Context, id keys.TripID) (string, string, error) {
	// case F22: none
	vals, err := s.rdb.MGet(ctx, s.key(id, "fare"), s.key(id, "surge")).Result()
	if err != nil {
		return "", "", err
	}
	return fmt.Sprint(vals[0]), fmt.Sprint(vals[1]), nil
}

// Receipts keeps the line items of a finished trip.
type Receipts struct {
	store *redisStore
}

// NewReceipts returns the receipt store.
func NewReceipts(rdb Client, opts Options) *Receipts {
	if opts.Prefix == "" {
		opts.Prefix = "receipt"
	}
	return &Receipts{store: &redisStore{rdb: rdb, opts: opts}}
}

// Totals returns subtotal and tip of a trip's receipt.
func (r *Receipts) Totals(ctx context.Context, id keys.TripID) ([]any, error) {
	// case F23: crossslot
	return r.store.rdb.MGet(ctx, r.store.key(id, "subtotal"), r.store.key(id, "tip")).Result()
}

// History merges rider and driver trip history.
type History struct {
	rdb redis.Cmdable
}

// NewHistory returns a History on rdb.
func NewHistory(rdb redis.Cmdable) *History { return &History{rdb: rdb} }

// Shared stores the trips a rider and a driver took together.
func (h *History) Shared(ctx context.Context, rider keys.RiderID, driver keys.DriverID) (int64, error) {
	// case F24: crossslot
	dest := fmt.Sprintf("history:%s:%s", rider, driver)
	return h.rdb.ZInterStore(ctx, dest, &redis.ZStore{
		Keys: []string{"history:rider:" + string(rider), "history:driver:" + string(driver)},
	}).Result()
}

// Recent merges the rider's yearly trip sets into one recent set.
func (h *History) Recent(ctx context.Context, rider keys.RiderID, years ...int) (int64, error) {
	// case F25: none
	src := make([]string, 0, len(years))
	for _, y := range years {
		src = append(src, rider.Key("trips:"+strconv.Itoa(y)))
	}
	n, err := h.rdb.ZUnionStore(ctx, rider.Key("recent"), &redis.ZStore{Keys: src, Aggregate: "MAX"}).Result()
	if err == nil {
		h.rdb.Expire(ctx, rider.Key("recent"), time.Hour)
	}
	return n, err
}

func mgetJSON[T any](ctx context.Context, c redis.Cmdable, ks ...string) ([]*T, error) {
	vals, err := c.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(vals))
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		var t T
		if err := json.Unmarshal([]byte(s), &t); err != nil {
			return nil, fmt.Errorf("decode %s: %w", ks[i], err)
		}
		out[i] = &t
	}
	return out, nil
}

// Doc is the JSON document of a trip, as the apps show it.
type Doc struct {
	Pickup  string `json:"pickup"`
	Dropoff string `json:"dropoff"`
	Fare    int64  `json:"fare"`
}

// Pair loads the documents of two trips (rebooking compares them).
func (h *History) Pair(ctx context.Context, a, b keys.TripID) ([]*Doc, error) {
	// case F26: crossslot
	return mgetJSON[Doc](ctx, h.rdb, fmt.Sprintf("trip:%d:doc", a), fmt.Sprintf("trip:%d:doc", b))
}

// DocAndReceipt loads the trip document and its receipt document.
func (h *History) DocAndReceipt(ctx context.Context, id keys.TripID) ([]*Doc, error) {
	// case F27: none
	return mgetJSON[Doc](ctx, h.rdb, id.Key("doc"), id.Key("receipt_doc"))
}
