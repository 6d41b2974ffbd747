// Package dispatch matches trips to drivers: per-market queues, offers and
// candidate ranking.
package dispatch

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fleet/internal/keys"
)

// Redis is what dispatch needs from the client.
type Redis interface {
	redis.Cmdable
	redis.Scripter
}

// claim moves the oldest pending trip to the leased zset with a deadline.
var claim = redis.NewScript(`
local id = redis.call('LPOP', KEYS[1])
if not id then return false end
redis.call('ZADD', KEYS[2], ARGV[1], id)
return id
`)

// Queue is a market's dispatch queue (the layout of the monolith).
type Queue struct {
	rdb     Redis
	pending string
	leased  string
}

// NewQueue returns the queue of a market.
func NewQueue(rdb Redis, market string) *Queue {
	return &Queue{
		rdb:     rdb,
		pending: "dispatch:" + market + ":pending",
		leased:  "dispatch:" + market + ":leased",
	}
}

// Push enqueues a trip.
func (q *Queue) Push(ctx context.Context, id keys.TripID) error {
	return q.rdb.RPush(ctx, q.pending, id.String()).Err()
}

// Claim leases the oldest trip for lease.
func (q *Queue) Claim(ctx context.Context, lease time.Duration) (string, error) {
	// case F28: crossslot
	deadline := time.Now().Add(lease).UnixMilli()
	return claim.Run(ctx, q.rdb, []string{q.pending, q.leased}, deadline).Text()
}

// CellQueue is a dispatch queue per geo cell, laid out for the cluster.
type CellQueue struct {
	rdb  Redis
	cell keys.CellID
}

// NewCellQueue returns the queue of a cell.
func NewCellQueue(rdb Redis, cell keys.CellID) *CellQueue {
	return &CellQueue{rdb: rdb, cell: cell}
}

func (q *CellQueue) key(part string) string {
	return fmt.Sprintf("dispatch:{%s}:%s", q.cell, part)
}

// Push enqueues a trip.
func (q *CellQueue) Push(ctx context.Context, id keys.TripID) error {
	return q.rdb.RPush(ctx, q.key("pending"), id.String()).Err()
}

// Claim leases the oldest trip for lease.
func (q *CellQueue) Claim(ctx context.Context, lease time.Duration) (string, error) {
	// case F29: none
	deadline := time.Now().Add(lease).UnixMilli()
	return claim.Run(ctx, q.rdb, []string{q.key("pending"), q.key("leased")}, deadline).Text()
}

// Offers sends trip offers to drivers.
type Offers struct {
	rdb Redis
	ttl time.Duration
}

// NewOffers returns the offer service.
func NewOffers(rdb Redis, ttl time.Duration) *Offers { return &Offers{rdb: rdb, ttl: ttl} }

const offerLua = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[1] .. ':attempts')
end
return 0
`

var offerScript = redis.NewScript(offerLua)

// Offer offers trip to driver if nobody holds it (v1 layout).
func (o *Offers) Offer(ctx context.Context, trip keys.TripID, driver keys.DriverID) (int64, error) {
	// case F30: scriptslot
	return offerScript.Run(ctx, o.rdb, []string{"offer:" + trip.String()}, string(driver), o.ttl.Milliseconds()).Int64()
}

// OfferV2 offers trip to driver if nobody holds it (v2 layout).
func (o *Offers) OfferV2(ctx context.Context, trip keys.TripID, driver keys.DriverID) (int64, error) {
	// case F31: none
	return offerScript.Run(ctx, o.rdb, []string{trip.Key("offer")}, string(driver), o.ttl.Milliseconds()).Int64()
}

var notifyScript = redis.NewScript(`
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[2] then return 0 end
redis.call('LPUSH', ARGV[1], ARGV[3])
return 1
`)

// Notify pushes the offer into the driver's inbox if the driver still holds it.
func (o *Offers) Notify(ctx context.Context, trip keys.TripID, driver keys.DriverID, payload string) (int64, error) {
	// case F32: undeclaredkey
	inbox := fmt.Sprintf("driver:%s:inbox", driver)
	return notifyScript.Run(ctx, o.rdb, []string{trip.Key("offer")}, inbox, string(driver), payload).Int64()
}

var notifyScriptV2 = redis.NewScript(`
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[2])
return 1
`)

// NotifyV2 pushes into the trip's outbox, which the driver app tails; both
// keys are declared and share the trip's tag.
func (o *Offers) NotifyV2(ctx context.Context, trip keys.TripID, driver keys.DriverID, payload string) (int64, error) {
	// case F33: none
	return notifyScriptV2.Run(ctx, o.rdb, []string{trip.Key("offer"), trip.Key("outbox")}, string(driver), payload).Int64()
}

var releaseScript = redis.NewScript(`
redis.call('DEL', KEYS[1])
return redis.call('DEL', KEYS[2])
`)

// Release drops an offer and its attempt counter.
func (o *Offers) Release(ctx context.Context, trip keys.TripID) (int64, error) {
	// case F34: missingkey
	return releaseScript.Run(ctx, o.rdb, []string{trip.Key("offer")}).Int64()
}

// ReleaseV2 drops an offer and its attempt counter.
func (o *Offers) ReleaseV2(ctx context.Context, trip keys.TripID) (int64, error) {
	// case F35: none
	return releaseScript.Run(ctx, o.rdb, []string{trip.Key("offer"), trip.Key("offer") + ":attempts"}).Int64()
}

// Ranker ranks candidate drivers of a cell.
type Ranker struct {
	rdb Redis
}

// NewRanker returns a Ranker.
func NewRanker(rdb Redis) *Ranker { return &Ranker{rdb: rdb} }

// Top returns the n best rated candidates of a cell (v1 layout, ratings in
// driver:<id>:rating).
func (r *Ranker) Top(ctx context.Context, cell keys.CellID, n int) ([]string, error) {
	// case F36: sortpattern
	return r.rdb.Sort(ctx, "cell:"+string(cell)+":candidates", &redis.Sort{
		By:    "driver:*:rating",
		Order: "DESC",
		Count: int64(n),
	}).Result()
}

// TopV2 returns the n best rated candidates of a cell; candidates are kept in
// a zset scored by rating.
func (r *Ranker) TopV2(ctx context.Context, cell keys.CellID, n int) ([]string, error) {
	// case F37: none
	return r.rdb.ZRevRange(ctx, "cell:{"+string(cell)+"}:candidates", 0, int64(n-1)).Result()
}

// TopByScore returns candidates whose "<rating>|<driver>" entries sort best.
func (r *Ranker) TopByScore(ctx context.Context, cell keys.CellID, n int) ([]string, error) {
	// case F38: none
	return r.rdb.Sort(ctx, "cell:{"+string(cell)+"}:entries", &redis.Sort{
		Order: "DESC",
		Alpha: true,
		Count: int64(n),
	}).Result()
}

// Requeue puts an expired lease back on the market's pending list.
func (q *Queue) Requeue(ctx context.Context, id keys.TripID) error {
	// case F39: crossslot
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRem(ctx, q.leased, id.String())
		p.LPush(ctx, q.pending, id.String())
		return nil
	})
	return err
}

// Requeue puts an expired lease back on the cell's pending list.
func (q *CellQueue) Requeue(ctx context.Context, id keys.TripID) error {
	// case F40: none
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRem(ctx, q.key("leased"), id.String())
		p.LPush(ctx, q.key("pending"), strconv.FormatInt(int64(id), 10))
		return nil
	})
	return err
}
