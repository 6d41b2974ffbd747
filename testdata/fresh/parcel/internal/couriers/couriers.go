// Package couriers tracks what each courier carries and where they go next.
package couriers

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/parcel/internal/keys"
)

type Tracker struct {
	rdb  redis.Cmdable
	keys keys.Space
}

func NewTracker(rdb redis.Cmdable, ks keys.Space) *Tracker {
	return &Tracker{rdb: rdb, keys: ks}
}

// loadScript moves a parcel from a station's inbox into the courier's bag and
// bumps the courier's load counter.
var loadScript = redis.NewScript(`
local p = redis.call('RPOP', KEYS[1])
if not p then return false end
redis.call('SADD', KEYS[2], p)
redis.call('INCR', KEYS[3])
return p
`)

// Load takes the next parcel waiting at a station.
func (t *Tracker) Load(ctx context.Context, c keys.CourierID, st keys.StationID) (string, error) {
	// case K16: crossslot
	return loadScript.Run(ctx, t.rdb, []string{t.keys.StationInbox(st), t.keys.CourierBag(c), t.keys.CourierLoad(c)}).Text()
}

// bagScript adds a parcel to the bag and records that it was seen, once.
var bagScript = redis.NewScript(`
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  return 1
end
return 0
`)

// Scan records a parcel scanned by the courier.
func (t *Tracker) Scan(ctx context.Context, c keys.CourierID, p keys.ParcelID, at time.Time) (bool, error) {
	// case K17: none
	n, err := bagScript.Run(ctx, t.rdb, []string{t.keys.CourierBag(c), t.keys.CourierSeen(c)}, string(p), at.Unix()).Int()
	return n == 1, err
}

// unloadScript empties the bag and keeps a per-courier tally next to it.
var unloadScript = redis.NewScript(`
local n = redis.call('SCARD', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('INCRBY', KEYS[1] .. ':delivered', n)
return n
`)

// Unload empties the courier's bag at the end of a run.
func (t *Tracker) Unload(ctx context.Context, c keys.CourierID) (int64, error) {
	// case K18: none
	return unloadScript.Run(ctx, t.rdb, []string{t.keys.CourierBag(c)}).Int64()
}

// routeDoneScript closes a route and bumps the legacy load counter.
var routeDoneScript = redis.NewScript(`
redis.call('DEL', KEYS[1])
return redis.call('INCR', 'parcel:courier:' .. ARGV[1] .. ':load')
`)

// FinishRoute closes the courier's route.
func (t *Tracker) FinishRoute(ctx context.Context, c keys.CourierID) (int64, error) {
	// case K19: undeclaredkey
	return routeDoneScript.Run(ctx, t.rdb, []string{t.keys.CourierRoute(c)}, string(c)).Int64()
}

// NextStop pops the next stop of the route and queues it into the station's inbox.
func (t *Tracker) NextStop(ctx context.Context, c keys.CourierID, st keys.StationID) (string, error) {
	// case K20: crossslot
	return t.rdb.LMove(ctx, t.keys.CourierRoute(c), t.keys.StationInbox(st), "LEFT", "RIGHT").Result()
}

// Handover passes a courier's bag to another courier.
func (t *Tracker) Handover(ctx context.Context, from, to keys.CourierID) (int64, error) {
	// case K21: crossslot
	return t.rdb.SUnionStore(ctx, t.keys.CourierBag(to), t.keys.CourierBag(to), t.keys.CourierBag(from)).Result()
}

// Reconcile drops from the bag what the courier already handed over.
func (t *Tracker) Reconcile(ctx context.Context, c keys.CourierID) (int64, error) {
	// case K22: none
	bag := t.keys.CourierBag(c)
	return t.rdb.SDiffStore(ctx, bag, bag, t.keys.CourierSeen(c)).Result()
}

// Plan replaces a courier's route, keeping the stations in the load key too.
func (t *Tracker) Plan(ctx context.Context, c keys.CourierID, stops []keys.StationID) error {
	// case K23: crossslot
	vals := make([]any, len(stops))
	for i, st := range stops {
		vals[i] = string(st)
	}
	_, err := t.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, t.keys.CourierRoute(c))
		p.RPush(ctx, t.keys.CourierRoute(c), vals...)
		p.Set(ctx, t.keys.CourierLoad(c), 0, 0)
		return nil
	})
	return err
}
