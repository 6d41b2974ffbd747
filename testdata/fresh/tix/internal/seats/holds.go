// Package seats implements seat holds: a buyer holds seats for a few minutes
// while paying; holds expire on their own.
package seats

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// ErrTaken is returned when a seat is already held or sold.
var ErrTaken = errors.New("seats: seat taken")

// Holds is the seat-hold store.
type Holds struct {
	rdb *redis.ClusterClient
	ttl time.Duration
}

// New returns a hold store; ttl is how long a hold lasts.
func New(rdb *redis.ClusterClient, ttl time.Duration) *Holds {
	return &Holds{rdb: rdb, ttl: ttl}
}

// holdKey is the per-seat hold, tagged by the event so one event's seats
// share a slot.
func holdKey(ev keyspace.EventID, seat keyspace.SeatID) string {
	return keyspace.Event.Tag(ev, "hold", seat.String())
}

// userHolds is the set of seats a user holds for an event.
func userHolds(ev keyspace.EventID, u keyspace.UserID) string {
	return keyspace.Event.Tag(ev, "holds", u.String())
}

// legacySeatKey is the pre-cluster layout, still used by the box office.
func legacySeatKey(ev keyspace.EventID, seat keyspace.SeatID) string {
	return fmt.Sprintf("seat:%d:%s", ev, seat)
}

// holdScript holds every seat or none. KEYS = the seats' hold keys then the
// user's hold set; ARGV = user, ttl ms.
var holdScript = redis.NewScript(`
local n = #KEYS - 1
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then return 0 end
end
for i = 1, n do
  redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
  redis.call('SADD', KEYS[#KEYS], KEYS[i])
end
redis.call('PEXPIRE', KEYS[#KEYS], ARGV[2])
return 1
`)

func (h *Holds) runHold(ctx context.Context, keys []string, u keyspace.UserID) error {
	ok, err := holdScript.Run(ctx, h.rdb, keys, u.String(), h.ttl.Milliseconds()).Int()
	if err != nil {
		return err
	}
	if ok == 0 {
		return ErrTaken
	}
	return nil
}

// Hold holds seats of one event for a user, all or nothing.
func (h *Holds) Hold(ctx context.Context, ev keyspace.EventID, u keyspace.UserID, seats ...keyspace.SeatID) error {
	// case T19: none
	keys := make([]string, 0, len(seats)+1)
	for _, s := range seats {
		keys = append(keys, holdKey(ev, s))
	}
	keys = append(keys, userHolds(ev, u))
	return h.runHold(ctx, keys, u)
}

// HoldBoxOffice is Hold for the box office, which still reads the legacy
// seat keys.
func (h *Holds) HoldBoxOffice(ctx context.Context, ev keyspace.EventID, u keyspace.UserID, seats ...keyspace.SeatID) error {
	// case T20: crossslot
	keys := make([]string, 0, len(seats)+1)
	for _, s := range seats {
		keys = append(keys, legacySeatKey(ev, s))
	}
	keys = append(keys, userHolds(ev, u))
	return h.runHold(ctx, keys, u)
}

// releaseScript drops a user's holds. KEYS[1] = the user's hold set.
var releaseScript = redis.NewScript(`
local seats = redis.call('SMEMBERS', KEYS[1])
for _, k in ipairs(seats) do redis.call('DEL', k) end
redis.call('DEL', KEYS[1])
redis.call('INCRBY', KEYS[1] .. ':released', #seats)
return #seats
`)

// Release drops every hold of a user on an event.
func (h *Holds) Release(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) (int64, error) {
	// case T21: none
	return releaseScript.Run(ctx, h.rdb, []string{userHolds(ev, u)}).Int64()
}

// statsScript counts holds per event in a dashboard counter.
var statsScript = redis.NewScript(`
local n = redis.call('SCARD', KEYS[1])
redis.call('HSET', 'dash:holds', KEYS[1], n)
return n
`)

// Report publishes a user's current hold count to the dashboard hash.
func (h *Holds) Report(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) (int64, error) {
	// case T22: scriptslot
	return statsScript.Run(ctx, h.rdb, []string{userHolds(ev, u)}).Int64()
}

// Extend pushes a user's holds out by another ttl, if they still hold them.
func (h *Holds) Extend(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) error {
	// case T23: none
	set := userHolds(ev, u)
	return h.rdb.Watch(ctx, func(tx *redis.Tx) error {
		seats, err := tx.SMembers(ctx, set).Result()
		if err != nil {
			return err
		}
		if len(seats) == 0 {
			return ErrTaken
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range seats {
				p.PExpire(ctx, k, h.ttl)
			}
			p.PExpire(ctx, set, h.ttl)
			return nil
		})
		return err
	}, set)
}

// Swap moves a user's hold from one event to another (a date change): the
// seat is held on the new date only if the old hold still exists.
func (h *Holds) Swap(ctx context.Context, u keyspace.UserID, from, to keyspace.EventID, seat keyspace.SeatID) error {
	// case T24: crossslot
	oldKey, newKey := holdKey(from, seat), holdKey(to, seat)
	return h.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if n, err := tx.Exists(ctx, oldKey).Result(); err != nil || n == 0 {
			return ErrTaken
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, oldKey)
			p.Set(ctx, newKey, u.String(), h.ttl)
			return nil
		})
		return err
	}, oldKey, newKey)
}

// Handover gives a held seat to another user of the same event.
func (h *Holds) Handover(ctx context.Context, ev keyspace.EventID, from, to keyspace.UserID, seat keyspace.SeatID) error {
	// case T25: none
	k := holdKey(ev, seat)
	_, err := h.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SMove(ctx, userHolds(ev, from), userHolds(ev, to), k)
		p.Set(ctx, k, to.String(), h.ttl)
		return nil
	})
	return err
}

// SeriesPass holds the same seat on every date of a series (a festival pass),
// all dates in one transaction.
func (h *Holds) SeriesPass(ctx context.Context, evs []keyspace.EventID, u keyspace.UserID, seat keyspace.SeatID) error {
	// case T26: crossslot
	_, err := h.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, ev := range evs {
			p.Set(ctx, holdKey(ev, seat), u.String(), h.ttl)
			p.SAdd(ctx, userHolds(ev, u), holdKey(ev, seat))
		}
		return nil
	})
	return err
}

// HeldBy lists who holds each seat of one event.
func (h *Holds) HeldBy(ctx context.Context, ev keyspace.EventID, seats ...keyspace.SeatID) ([]any, error) {
	// case T27: none
	keys := make([]string, len(seats))
	for i, s := range seats {
		keys[i] = holdKey(ev, s)
	}
	return h.rdb.MGet(ctx, keys...).Result()
}

// lockKey guards a seat map while the box office edits it. The tag was meant
// to hold the venue section.
func lockKey(section string) string { return "seatmap:{}:lock:" + section }

// LockSections locks several sections of a seat map at once, all or none.
func (h *Holds) LockSections(ctx context.Context, owner string, sections ...string) (bool, error) {
	// case T28: emptytag
	pairs := make([]any, 0, 2*len(sections))
	for _, s := range sections {
		pairs = append(pairs, lockKey(s), owner)
	}
	return h.rdb.MSetNX(ctx, pairs...).Result()
}
