// Package lockers keeps stations, their lockers and the parcels inside them.
package lockers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/parcel/internal/keys"
)

var ErrNoFreeLocker = errors.New("lockers: no free locker")

// Options tune a Store.
type Options struct {
	ParcelTTL time.Duration
}

type Store struct {
	rdb  redis.UniversalClient
	keys keys.Space
	opts Options
}

func New(rdb redis.UniversalClient, ks keys.Space, opts Options) *Store {
	if opts.ParcelTTL == 0 {
		opts.ParcelTTL = 72 * time.Hour
	}
	return &Store{rdb: rdb, keys: ks, opts: opts}
}

// AddLockers registers lockers as free at a station.
func (s *Store) AddLockers(ctx context.Context, st keys.StationID, nos ...keys.LockerNo) error {
	// case K1: none
	members := make([]any, 0, len(nos))
	for _, n := range nos {
		members = append(members, int(n))
	}
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, s.keys.StationFree(st), members...)
		p.HSet(ctx, s.keys.StationInfo(st), "lockers", len(nos))
		p.HIncrBy(ctx, s.keys.StationCounters(st), "lockers", int64(len(nos)))
		return nil
	})
	return err
}

// DropOff puts a parcel into a free locker and records it on the parcel.
func (s *Store) DropOff(ctx context.Context, st keys.StationID, p keys.ParcelID) (int, error) {
	// case K2: crossslot
	n, err := s.rdb.SPop(ctx, s.keys.StationFree(st)).Int()
	if err != nil {
		return 0, ErrNoFreeLocker
	}
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SAdd(ctx, s.keys.StationBusy(st), n)
		pipe.HSet(ctx, s.keys.Parcel(p), "station", string(st), "locker", n, "state", "in_locker")
		pipe.Expire(ctx, s.keys.Parcel(p), s.opts.ParcelTTL)
		return nil
	})
	return n, err
}

// DropOffAtStation is DropOff with the parcel record kept in the station.
func (s *Store) DropOffAtStation(ctx context.Context, st keys.StationID, p keys.ParcelID) (int, error) {
	// case K3: none
	n, err := s.rdb.SPop(ctx, s.keys.StationFree(st)).Int()
	if err != nil {
		return 0, ErrNoFreeLocker
	}
	rec := s.keys.StationParcel(st, p)
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SAdd(ctx, s.keys.StationBusy(st), n)
		pipe.HSet(ctx, rec, "locker", n, "state", "in_locker")
		pipe.Expire(ctx, rec, s.opts.ParcelTTL)
		pipe.HIncrBy(ctx, s.keys.StationCounters(st), "dropped", 1)
		return nil
	})
	return n, err
}

// Release frees a locker after pickup.
func (s *Store) Release(ctx context.Context, st keys.StationID, n keys.LockerNo) (bool, error) {
	// case K4: none
	return s.rdb.SMove(ctx, s.keys.StationBusy(st), s.keys.StationFree(st), int(n)).Result()
}

// MoveLocker hands a locker over to a neighbouring station (a locker wall that is shared).
func (s *Store) MoveLocker(ctx context.Context, from, to keys.StationID, n keys.LockerNo) (bool, error) {
	// case K5: crossslot
	return s.rdb.SMove(ctx, s.keys.StationFree(from), s.keys.StationFree(to), int(n)).Result()
}

// FreeAcross returns the lockers free at any of the given stations.
func (s *Store) FreeAcross(ctx context.Context, stations ...keys.StationID) ([]string, error) {
	// case K6: crossslot
	ks := make([]string, 0, len(stations))
	for _, st := range stations {
		ks = append(ks, s.keys.StationFree(st))
	}
	return s.rdb.SUnion(ctx, ks...).Result()
}

// FreeCount counts free lockers per station, one read per station.
func (s *Store) FreeCount(ctx context.Context, stations ...keys.StationID) (map[keys.StationID]int64, error) {
	// case K7: none
	cmds := make(map[keys.StationID]*redis.IntCmd, len(stations))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, st := range stations {
			cmds[st] = p.SCard(ctx, s.keys.StationFree(st))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[keys.StationID]int64, len(cmds))
	for st, c := range cmds {
		out[st] = c.Val()
	}
	return out, nil
}

// ParcelStates reads the state of several parcels at once.
func (s *Store) ParcelStates(ctx context.Context, ids ...keys.ParcelID) ([]any, error) {
	// case K8: crossslot
	ks := make([]string, len(ids))
	for i, id := range ids {
		ks[i] = s.keys.ParcelStatus(id)
	}
	return s.rdb.MGet(ctx, ks...).Result()
}

// SetStates writes the state of a station's parcels in one go.
func (s *Store) SetStates(ctx context.Context, st keys.StationID, states map[keys.ParcelID]string) error {
	// case K9: none
	pairs := make([]any, 0, 2*len(states))
	for p, state := range states {
		pairs = append(pairs, s.keys.StationParcel(st, p)+":state", state)
	}
	return s.rdb.MSet(ctx, pairs...).Err()
}

// MarkDelivered flips the legacy status keys of a parcel and its return label.
func (s *Store) MarkDelivered(ctx context.Context, p, ret keys.ParcelID) error {
	// case K10: crossslot
	return s.rdb.MSet(ctx, s.keys.ParcelStatus(p), "delivered", s.keys.ParcelStatus(ret), "return_open").Err()
}

// Forget removes a parcel and its event log.
func (s *Store) Forget(ctx context.Context, p keys.ParcelID) error {
	// case K11: crossslot
	return s.rdb.Del(ctx, s.keys.Parcel(p), s.keys.ParcelEvents(p), s.keys.ParcelStatus(p)).Err()
}

// ForgetAtStation removes a parcel kept in its station.
func (s *Store) ForgetAtStation(ctx context.Context, st keys.StationID, p keys.ParcelID) error {
	// case K12: none
	rec := s.keys.StationParcel(st, p)
	return s.rdb.Del(ctx, rec, rec+":state").Err()
}

// Archive moves a picked-up parcel's record into the station.
func (s *Store) Archive(ctx context.Context, st keys.StationID, p keys.ParcelID) error {
	// case K13: crossslot
	return s.rdb.Rename(ctx, s.keys.Parcel(p), s.keys.StationParcel(st, p)).Err()
}

// Reassign moves a parcel from one locker to another of the same station.
func (s *Store) Reassign(ctx context.Context, st keys.StationID, from, to keys.LockerNo) error {
	// case K14: none
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		parcel, err := tx.Get(ctx, s.keys.Locker(st, from)).Result()
		if err != nil {
			return err
		}
		if tx.Exists(ctx, s.keys.Locker(st, to)).Val() == 1 {
			return fmt.Errorf("locker %d busy", to)
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, s.keys.Locker(st, to), parcel, 0)
			p.Del(ctx, s.keys.Locker(st, from))
			return nil
		})
		return err
	}, s.keys.Locker(st, from), s.keys.Locker(st, to))
}

// Redirect sends a parcel on to another station: the record follows it.
func (s *Store) Redirect(ctx context.Context, from, to keys.StationID, p keys.ParcelID) error {
	// case K15: crossslot
	src, dst := s.keys.StationParcel(from, p), s.keys.StationParcel(to, p)
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		rec, err := tx.HGetAll(ctx, src).Result()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.HSet(ctx, dst, rec)
			pipe.Del(ctx, src)
			return nil
		})
		return err
	}, src, dst)
}
