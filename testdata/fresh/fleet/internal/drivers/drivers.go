// Package drivers keeps driver presence, status and vehicle assignment.
package drivers

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fleet/internal/keys"
)

// Snapshot is what the dispatcher needs to know about a driver.
type Snapshot struct {
	Status string
	Loc    string
	Rating string
}

// Store is the driver store. The client is whatever main hands us: a cluster
// client in production, a single node in local dev.
type Store struct {
	rdb redis.UniversalClient
	ttl time.Duration
}

// Options tunes the store.
type Options struct {
	PresenceTTL time.Duration
}

// New returns a driver store on rdb.
func New(rdb redis.UniversalClient, opts Options) *Store {
	if opts.PresenceTTL == 0 {
		opts.PresenceTTL = 90 * time.Second
	}
	return &Store{rdb: rdb, ttl: opts.PresenceTTL}
}

// GoOnline marks the driver online at loc (v1 layout).
func (s *Store) GoOnline(ctx context.Context, id keys.DriverID, loc string) error {
	// case F1: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, keys.DriverStatus(id), "online", s.ttl)
		p.Set(ctx, keys.DriverLoc(id), loc, s.ttl)
		return nil
	})
	return err
}

// GoOnlineV2 marks the driver online at loc (v2 layout).
func (s *Store) GoOnlineV2(ctx context.Context, id keys.DriverID, loc string) error {
	// case F2: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, id.Key("status"), "online", s.ttl)
		p.Set(ctx, id.Key("loc"), loc, s.ttl)
		return nil
	})
	return err
}

func snapshotOf(vals []any) Snapshot {
	str := func(v any) string {
		if v == nil {
			return ""
		}
		return fmt.Sprint(v)
	}
	return Snapshot{Status: str(vals[0]), Loc: str(vals[1]), Rating: str(vals[2])}
}

// Snapshot reads status, location and rating in one round trip (v1 layout).
func (s *Store) Snapshot(ctx context.Context, id keys.DriverID) (Snapshot, error) {
	// case F3: crossslot
	vals, err := s.rdb.MGet(ctx, keys.DriverStatus(id), keys.DriverLoc(id), keys.DriverRating(id)).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(vals), nil
}

// SnapshotV2 reads status, location and rating in one round trip (v2 layout).
func (s *Store) SnapshotV2(ctx context.Context, id keys.DriverID) (Snapshot, error) {
	// case F4: none
	vals, err := s.rdb.MGet(ctx, id.Key("status"), id.Key("loc"), id.Key("rating")).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(vals), nil
}

const freeVehicles = "fleet:vehicles:free"

// AssignVehicle moves a vehicle out of the free pool into the driver's set.
func (s *Store) AssignVehicle(ctx context.Context, d keys.DriverID, v keys.VehicleID) (bool, error) {
	// case F5: crossslot
	return s.rdb.SMove(ctx, freeVehicles, "fleet:vehicles:driver:"+string(d), string(v)).Result()
}

// AssignVehicleV2 moves the vehicle between pool sets that share a tag and
// records the driver on the vehicle itself.
func (s *Store) AssignVehicleV2(ctx context.Context, d keys.DriverID, v keys.VehicleID) (bool, error) {
	// case F6: none
	ok, err := s.rdb.SMove(ctx, "{fleet:vehicles}:free", "{fleet:vehicles}:assigned", string(v)).Result()
	if err != nil || !ok {
		return ok, err
	}
	return true, s.rdb.HSet(ctx, v.Key("info"), "driver", string(d)).Err()
}

func statusKeys(ids []keys.DriverID) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, id := range ids {
			if !yield(keys.DriverStatus(id)) {
				return
			}
		}
	}
}

// BulkStatus returns the status of many drivers with one MGET.
func (s *Store) BulkStatus(ctx context.Context, ids []keys.DriverID) ([]any, error) {
	// case F7: crossslot?
	return s.rdb.MGet(ctx, slices.Collect(statusKeys(ids))...).Result()
}

// BulkStatusPipelined returns the status of many drivers, one GET per driver
// in a pipeline (the cluster client splits it per node).
func (s *Store) BulkStatusPipelined(ctx context.Context, ids []keys.DriverID) ([]string, error) {
	// case F8: none
	cmds, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for k := range statusKeys(ids) {
			p.Get(ctx, k)
		}
		return nil
	})
	if err != nil && err != redis.Nil {
		return nil, err
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.(*redis.StringCmd).Val()
	}
	return out, nil
}

func (s *Store) del(ctx context.Context, ks ...string) error {
	return s.rdb.Del(ctx, ks...).Err()
}

// Offboard removes everything we hold about a driver (v1 layout).
func (s *Store) Offboard(ctx context.Context, id keys.DriverID) error {
	// case F9: crossslot
	return s.del(ctx, keys.Driver(id), keys.DriverLoc(id), keys.DriverStatus(id))
}

// OffboardV2 removes everything we hold about a driver (v2 layout).
func (s *Store) OffboardV2(ctx context.Context, id keys.DriverID) error {
	// case F10: none
	return s.rdb.Unlink(ctx, id.Key("profile"), id.Key("loc"), id.Key("status"), id.Key("rating")).Err()
}

func driverFromStatusKey(k string) keys.DriverID {
	k = strings.TrimPrefix(k, "drv:{")
	if i := strings.Index(k, "}"); i >= 0 {
		k = k[:i]
	}
	return keys.DriverID(k)
}

// OnlineDrivers lists the drivers that have a status key.
func (s *Store) OnlineDrivers(ctx context.Context) ([]keys.DriverID, error) {
	// case F11: onenode
	var out []keys.DriverID
	iter := s.rdb.Scan(ctx, 0, "drv:{*}:status", 500).Iterator()
	for iter.Next(ctx) {
		out = append(out, driverFromStatusKey(iter.Val()))
	}
	return out, iter.Err()
}

// OnlineDriversAllNodes lists the drivers that have a status key, scanning
// every master when the client is a cluster client.
func (s *Store) OnlineDriversAllNodes(ctx context.Context) ([]keys.DriverID, error) {
	// case F12: none
	scan := func(ctx context.Context, c redis.Cmdable) ([]keys.DriverID, error) {
		var out []keys.DriverID
		it := c.Scan(ctx, 0, "drv:{*}:status", 500).Iterator()
		for it.Next(ctx) {
			out = append(out, driverFromStatusKey(it.Val()))
		}
		return out, it.Err()
	}
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		return scan(ctx, s.rdb)
	}
	ch := make(chan []keys.DriverID, 16)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		ids, err := scan(ctx, node)
		ch <- ids
		return err
	})
	close(ch)
	var out []keys.DriverID
	for ids := range ch {
		out = append(out, ids...)
	}
	return out, err
}

// VehicleService returns odometer and next service date (v1 layout).
func (s *Store) VehicleService(ctx context.Context, v keys.VehicleID) ([]any, error) {
	// case F13: crossslot
	return s.rdb.MGet(ctx, keys.Vehicle(v, "odometer"), keys.Vehicle(v, "service_due")).Result()
}

// VehicleServiceV2 returns odometer and next service date (v2 layout).
func (s *Store) VehicleServiceV2(ctx context.Context, v keys.VehicleID) ([]any, error) {
	// case F14: none
	return s.rdb.MGet(ctx, v.Key("odometer"), v.Key("service_due")).Result()
}
