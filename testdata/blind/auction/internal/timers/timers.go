// Package timers runs auction clocks: closing lots, anti-sniping extensions
// and the queues and event streams that drive the closer.
package timers

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// ErrNotDue is returned when a lot is not ready to close.
var ErrNotDue = errors.New("timers: lot not due")

// Sniper extends lots that receive a bid in their last moments.
type Sniper struct {
	rdb    redis.UniversalClient
	Window time.Duration
}

func NewSniper(rdb redis.UniversalClient, window time.Duration) *Sniper {
	return &Sniper{rdb: rdb, Window: window}
}

// KEYS[1]=ends KEYS[2]=high ; ARGV[1]=now ms ARGV[2]=window ms ARGV[3]=bid
var extendScript = redis.NewScript(`
local ends = tonumber(redis.call('GET', KEYS[1]) or '0')
local now, win = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
if ends - now < win then
  ends = now + win
  redis.call('SET', KEYS[1], ends)
end
return ends
`)

// Extend records a bid and pushes the end time out if it came too late.
func (s *Sniper) Extend(ctx context.Context, id keys.LotID, bid int64, now time.Time) (time.Time, error) {
	// case B12: none
	ms, err := extendScript.Run(ctx, s.rdb, []string{id.Ends(), id.High()},
		now.UnixMilli(), s.Window.Milliseconds(), bid).Int64()
	return time.UnixMilli(ms), err
}

// KEYS[1]=ends KEYS[2]=high ; ARGV[1]=config hash ARGV[2]=now ARGV[3]=bid
var extendConfiguredScript = redis.NewScript(`
local win = tonumber(redis.call('HGET', ARGV[1], 'window_ms') or '120000')
local ends = tonumber(redis.call('GET', KEYS[1]) or '0')
local now = tonumber(ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
if ends - now < win then
  ends = now + win
  redis.call('SET', KEYS[1], ends)
end
return ends
`)

// ExtendConfigured is Extend with the window read from the live config hash,
// so ops can tune sniping protection without a deploy.
func (s *Sniper) ExtendConfigured(ctx context.Context, id keys.LotID, bid int64, now time.Time) (time.Time, error) {
	// case B13: script
	ms, err := extendConfiguredScript.Run(ctx, s.rdb, []string{id.Ends(), id.High()},
		keys.SnipingConfig, now.UnixMilli(), bid).Int64()
	return time.UnixMilli(ms), err
}

// Clock closes lots.
type Clock struct {
	rdb *redis.ClusterClient
}

func NewClock(rdb *redis.ClusterClient) *Clock { return &Clock{rdb: rdb} }

func due(ctx context.Context, tx *redis.Tx, id keys.LotID, now time.Time) error {
	ends, err := tx.Get(ctx, id.Ends()).Int64()
	if err != nil {
		return err
	}
	if ends > now.UnixMilli() {
		return ErrNotDue
	}
	return nil
}

// CloseIfDue flips a lot to closed when its clock ran out, optimistically.
func (c *Clock) CloseIfDue(ctx context.Context, id keys.LotID, now time.Time) error {
	// case B14: none
	return c.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := due(ctx, tx, id, now); err != nil {
			return err
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, id.State(), "closed", 0)
			return nil
		})
		return err
	}, id.Ends(), id.State())
}

// CloseAndQueuePayout closes a lot and credits the seller's pending payout
// with the hammer price, watching both so a late bid aborts the close.
func (c *Clock) CloseAndQueuePayout(ctx context.Context, id keys.LotID, seller keys.SellerID, now time.Time) error {
	// case B15: crossslot
	return c.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := due(ctx, tx, id, now); err != nil {
			return err
		}
		hammer, err := tx.Get(ctx, id.High()).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, id.State(), "closed", 0)
			p.IncrBy(ctx, seller.Pending(), hammer)
			return nil
		})
		return err
	}, id.State(), seller.Pending())
}

// Queues hands due lots to closer workers.
type Queues struct {
	rdb redis.UniversalClient
}

func NewQueues(rdb redis.UniversalClient) *Queues { return &Queues{rdb: rdb} }

// Push enqueues a lot on the named queue.
func (q *Queues) Push(ctx context.Context, queue keys.Queue, id keys.LotID) error {
	return q.rdb.RPush(ctx, queue.Key(), id.String()).Err()
}

// PushLegacy enqueues on the old queue names.
func (q *Queues) PushLegacy(ctx context.Context, name string, id keys.LotID) error {
	return q.rdb.RPush(ctx, keys.LegacyQueue(name), id.String()).Err()
}

// NextDue pops the next lot to close, urgent queue first.
func (q *Queues) NextDue(ctx context.Context, wait time.Duration) (keys.LotID, error) {
	// case B16: none
	res, err := q.rdb.BLPop(ctx, wait, keys.Queue("urgent").Key(), keys.Queue("normal").Key()).Result()
	if err != nil {
		return "", err
	}
	return keys.LotID(res[1]), nil
}

// NextLegacy drains the pre-cluster queues during the migration.
func (q *Queues) NextLegacy(ctx context.Context, wait time.Duration) (keys.LotID, error) {
	// case B17: crossslot
	res, err := q.rdb.BLPop(ctx, wait, keys.LegacyQueue("urgent"), keys.LegacyQueue("normal")).Result()
	if err != nil {
		return "", err
	}
	return keys.LotID(res[1]), nil
}

// Feed tails lot event streams for the live auction room.
type Feed struct {
	rdb redis.UniversalClient
}

func NewFeed(rdb redis.UniversalClient) *Feed { return &Feed{rdb: rdb} }

// Event is one entry of a lot stream.
type Event struct {
	Stream string
	ID     string
	Kind   string
}

func flatten(streams []redis.XStream) []Event {
	var out []Event
	for _, s := range streams {
		for _, m := range s.Messages {
			kind, _ := m.Values["kind"].(string)
			out = append(out, Event{Stream: s.Stream, ID: m.ID, Kind: kind})
		}
	}
	return out
}

// Append writes an event to a stream.
func (f *Feed) Append(ctx context.Context, stream, kind string) error {
	return f.rdb.XAdd(ctx, &redis.XAddArgs{Stream: stream, Values: map[string]any{"kind": kind, "at": strconv.FormatInt(time.Now().UnixMilli(), 10)}}).Err()
}

// Follow returns new public and audit events of a lot.
func (f *Feed) Follow(ctx context.Context, id keys.LotID) ([]Event, error) {
	// case B18: none
	res, err := f.rdb.XRead(ctx, &redis.XReadArgs{
		Streams: []string{id.Events(), id.Audit(), "0", "0"},
		Count:   100,
		Block:   -1,
	}).Result()
	if err != nil {
		return nil, err
	}
	return flatten(res), nil
}

// FollowWithSeller also shows the seller's own activity in the room.
func (f *Feed) FollowWithSeller(ctx context.Context, id keys.LotID, seller keys.SellerID) ([]Event, error) {
	// case B19: crossslot
	res, err := f.rdb.XRead(ctx, &redis.XReadArgs{
		Streams: []string{id.Events(), seller.Events(), "0", "0"},
		Count:   100,
		Block:   -1,
	}).Result()
	if err != nil {
		return nil, err
	}
	return flatten(res), nil
}
