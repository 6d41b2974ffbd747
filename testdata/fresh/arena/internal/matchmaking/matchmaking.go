// Package matchmaking keeps the matchmaking queues: tickets wait in a queue
// per game mode and region until the matcher pops enough of them to form a
// match.
package matchmaking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/arena/internal/ids"
)

// TicketTTL bounds how long an abandoned ticket survives.
const TicketTTL = 10 * time.Minute

// ErrTicketTaken is returned when another matcher claimed the ticket first.
var ErrTicketTaken = errors.New("matchmaking: ticket already claimed")

// Ticket is one player's (or party's) request to be matched.
type Ticket struct {
	ID     ids.TicketID
	Player ids.PlayerID
	Mode   string
	Region string
	Rating int
}

func (t Ticket) fields() map[string]any {
	return map[string]any{
		"player": t.Player.String(),
		"mode":   t.Mode,
		"region": t.Region,
		"rating": t.Rating,
	}
}

// Matchmaker owns the queue keys. Namespace is set by the caller (main) so
// that staging and production can share a cluster.
type Matchmaker struct {
	rdb       *redis.ClusterClient
	namespace string
	now       func() time.Time
}

// New returns a Matchmaker writing under namespace.
func New(rdb *redis.ClusterClient, namespace string) *Matchmaker {
	return &Matchmaker{rdb: rdb, namespace: namespace, now: time.Now}
}

// --- keys from the single-server days -------------------------------------

func (m *Matchmaker) queueKey(mode, region string) string {
	return fmt.Sprintf("%s:queue:%s:%s", m.namespace, mode, region)
}

func (m *Matchmaker) ticketKey(id ids.TicketID) string {
	return m.namespace + ":ticket:" + id.String()
}

func (m *Matchmaker) backfillKey(region string) string {
	return m.namespace + ":backfill:" + region
}

// --- pool keys: everything a queue touches shares the pool's tag -----------

type pool struct {
	ns, mode, region string
}

func (m *Matchmaker) pool(mode, region string) pool { return pool{m.namespace, mode, region} }

func (p pool) tag() string                   { return "{pool:" + p.mode + ":" + p.region + "}" }
func (p pool) queue() string                 { return p.ns + ":" + p.tag() + ":queue" }
func (p pool) ticket(id ids.TicketID) string { return p.ns + ":" + p.tag() + ":ticket:" + string(id) }
func (p pool) backfill() string              { return p.ns + ":" + p.tag() + ":backfill" }
func (p pool) inflight() string              { return p.backfill() + ":inflight" }
func (p pool) match(id ids.MatchID, st string) string {
	return p.ns + ":" + p.tag() + ":match:" + string(id) + ":" + st
}

func (m *Matchmaker) score() float64 { return float64(m.now().UnixMilli()) }

// Enqueue stores the ticket and puts it in its queue in one transaction.
func (m *Matchmaker) Enqueue(ctx context.Context, t Ticket) error {
	// case G1: crossslot
	_, err := m.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, m.ticketKey(t.ID), t.fields())
		pipe.Expire(ctx, m.ticketKey(t.ID), TicketTTL)
		pipe.Set(ctx, m.ticketKey(t.ID)+":rating", t.Rating, TicketTTL)
		pipe.ZAdd(ctx, m.queueKey(t.Mode, t.Region), redis.Z{Score: m.score(), Member: t.ID.String()})
		return nil
	})
	return err
}

// EnqueuePooled is Enqueue on the pool layout.
func (m *Matchmaker) EnqueuePooled(ctx context.Context, t Ticket) error {
	// case G2: none
	p := m.pool(t.Mode, t.Region)
	_, err := m.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, p.ticket(t.ID), t.fields())
		pipe.Expire(ctx, p.ticket(t.ID), TicketTTL)
		pipe.Set(ctx, p.ticket(t.ID)+":rating", t.Rating, TicketTTL)
		pipe.ZAdd(ctx, p.queue(), redis.Z{Score: m.score(), Member: t.ID.String()})
		return nil
	})
	return err
}

// DrainQueue pops up to n of the oldest tickets and loads their ratings.
func (m *Matchmaker) DrainQueue(ctx context.Context, mode, region string, n int64) ([]any, error) {
	// case G3: crossslot?
	popped, err := m.rdb.ZPopMin(ctx, m.queueKey(mode, region), n).Result()
	if err != nil || len(popped) == 0 {
		return nil, err
	}
	keys := make([]string, 0, len(popped))
	for _, z := range popped {
		keys = append(keys, m.ticketKey(ids.TicketID(z.Member.(string)))+":rating")
	}
	return m.rdb.MGet(ctx, keys...).Result()
}

// DrainPool is DrainQueue on the pool layout.
func (m *Matchmaker) DrainPool(ctx context.Context, mode, region string, n int64) ([]int, error) {
	// case G4: none
	p := m.pool(mode, region)
	popped, err := m.rdb.ZPopMin(ctx, p.queue(), n).Result()
	if err != nil || len(popped) == 0 {
		return nil, err
	}
	keys := make([]string, 0, len(popped))
	for _, z := range popped {
		keys = append(keys, p.ticket(ids.TicketID(z.Member.(string)))+":rating")
	}
	vals, err := m.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]int, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			out[i], _ = strconv.Atoi(s)
		}
	}
	return out, nil
}

// Cancel drops a ticket and its preferences.
func (m *Matchmaker) Cancel(ctx context.Context, id ids.TicketID) error {
	// case G5: crossslot
	key := m.ticketKey(id)
	return m.rdb.Del(ctx, key, key+":prefs").Err()
}

// CancelPooled is Cancel on the pool layout.
func (m *Matchmaker) CancelPooled(ctx context.Context, mode, region string, id ids.TicketID) error {
	// case G6: none
	key := m.pool(mode, region).ticket(id)
	return m.rdb.Del(ctx, key, key+":prefs").Err()
}

// PromoteMatch flips a pending match to live once every player accepted.
func (m *Matchmaker) PromoteMatch(ctx context.Context, id ids.MatchID) error {
	// case G7: crossslot
	pending := m.namespace + ":match:pending:" + id.String()
	live := m.namespace + ":match:live:" + id.String()
	return m.rdb.Rename(ctx, pending, live).Err()
}

// PromotePoolMatch is PromoteMatch on the pool layout.
func (m *Matchmaker) PromotePoolMatch(ctx context.Context, mode, region string, id ids.MatchID) error {
	// case G8: none
	p := m.pool(mode, region)
	return m.rdb.Rename(ctx, p.match(id, "pending"), p.match(id, "live")).Err()
}

// claim removes the ticket from the queue if it is still there.
func claim(ctx context.Context, tx *redis.Tx, ticket, queue, member string) error {
	st, err := tx.HGet(ctx, ticket, "state").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	if st == "claimed" {
		return ErrTicketTaken
	}
	_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, ticket, "state", "claimed")
		pipe.ZRem(ctx, queue, member)
		return nil
	})
	return err
}

// Claim takes a ticket out of its queue with optimistic locking.
func (m *Matchmaker) Claim(ctx context.Context, t Ticket) error {
	// case G9: crossslot
	ticket, queue := m.ticketKey(t.ID), m.queueKey(t.Mode, t.Region)
	return m.rdb.Watch(ctx, func(tx *redis.Tx) error {
		return claim(ctx, tx, ticket, queue, t.ID.String())
	}, ticket, queue)
}

// ClaimPooled is Claim on the pool layout.
func (m *Matchmaker) ClaimPooled(ctx context.Context, t Ticket) error {
	// case G10: none
	p := m.pool(t.Mode, t.Region)
	ticket, queue := p.ticket(t.ID), p.queue()
	return m.rdb.Watch(ctx, func(tx *redis.Tx) error {
		return claim(ctx, tx, ticket, queue, t.ID.String())
	}, ticket, queue)
}

// Tickets loads many tickets at once for the admin dashboard.
func (m *Matchmaker) Tickets(ctx context.Context, ticketIDs ...ids.TicketID) ([]map[string]string, error) {
	// case G11: none
	cmds, err := m.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, id := range ticketIDs {
			pipe.HGetAll(ctx, m.ticketKey(id))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]map[string]string, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, c.(*redis.MapStringStringCmd).Val())
	}
	return out, nil
}

// NextBackfill hands the oldest backfill request of a region to a game
// server, keeping it in an in-flight list until it is acknowledged.
func (m *Matchmaker) NextBackfill(ctx context.Context, region string) (string, error) {
	// case G12: crossslot
	src := m.backfillKey(region)
	return m.rdb.LMove(ctx, src, src+":inflight", "LEFT", "RIGHT").Result()
}

// NextPoolBackfill is NextBackfill on the pool layout.
func (m *Matchmaker) NextPoolBackfill(ctx context.Context, mode, region string) (string, error) {
	// case G13: none
	p := m.pool(mode, region)
	return m.rdb.LMove(ctx, p.backfill(), p.inflight(), "LEFT", "RIGHT").Result()
}

// accept marks a ticket accepted and counts it towards the match.
var accept = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'state') == 'claimed' then
  redis.call('HSET', KEYS[1], 'state', 'accepted')
  return redis.call('HINCRBY', KEYS[2], 'accepted', 1)
end
return -1
`)

// Accept records a player's accept of the proposed match.
func (m *Matchmaker) Accept(ctx context.Context, t Ticket, match ids.MatchID) (int64, error) {
	// case G14: crossslot
	keys := []string{m.ticketKey(t.ID), m.namespace + ":match:pending:" + match.String()}
	return accept.Run(ctx, m.rdb, keys).Int64()
}

// AcceptPooled is Accept on the pool layout.
func (m *Matchmaker) AcceptPooled(ctx context.Context, t Ticket, match ids.MatchID) (int64, error) {
	// case G15: none
	p := m.pool(t.Mode, t.Region)
	return accept.Run(ctx, m.rdb, []string{p.ticket(t.ID), p.match(match, "pending")}).Int64()
}
