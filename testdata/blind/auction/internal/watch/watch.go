// Package watch keeps bidders' watchlists and the per-lot watcher counts.
package watch

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/auction/internal/keys"
)

// Lists is the watchlist store, on redigo + redisc.
type Lists struct {
	cluster *redisc.Cluster
}

func NewLists(c *redisc.Cluster) *Lists { return &Lists{cluster: c} }

func (l *Lists) conn(ctx context.Context) (redis.Conn, error) {
	c := l.cluster.Get()
	if err := c.Err(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// retrying returns a connection that follows MOVED/ASK for single commands.
func (l *Lists) retrying(ctx context.Context) (redis.Conn, error) {
	c, err := l.conn(ctx)
	if err != nil {
		return nil, err
	}
	return redisc.RetryConn(c, 3, 50*time.Millisecond)
}

// receiveAll reads n pipelined replies and returns the first error.
func receiveAll(c redis.Conn, n int) error {
	var first error
	for range n {
		if _, err := c.Receive(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Add puts a lot on a bidder's watchlist and bumps the lot's watcher set,
// pipelined on one connection.
func (l *Lists) Add(ctx context.Context, b keys.BidderID, id keys.LotID) error {
	// case B66: crossslot
	c, err := l.conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	c.Send("SADD", b.Watchlist(), id.String())
	c.Send("SADD", id.Watchers(), b.String())
	if err := c.Flush(); err != nil {
		return err
	}
	return receiveAll(c, 2)
}

// AddRetrying does the same with one self-routing command per key.
func (l *Lists) AddRetrying(ctx context.Context, b keys.BidderID, id keys.LotID) error {
	// case B67: none
	c, err := l.retrying(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Do("SADD", b.Watchlist(), id.String()); err != nil {
		return err
	}
	_, err = c.Do("SADD", id.Watchers(), b.String())
	return err
}

// Summary is what the "my watchlist" header shows.
type Summary struct {
	Lots     []string
	Count    int
	Archived int
}

// Snapshot reads a bidder's watchlist and counters in one pipeline.
func (l *Lists) Snapshot(ctx context.Context, b keys.BidderID) (Summary, error) {
	// case B68: none
	c, err := l.conn(ctx)
	if err != nil {
		return Summary{}, err
	}
	defer c.Close()
	c.Send("SMEMBERS", b.Watchlist())
	c.Send("SCARD", b.Watchlist())
	c.Send("SCARD", b.Archive())
	if err := c.Flush(); err != nil {
		return Summary{}, err
	}
	var s Summary
	if s.Lots, err = redis.Strings(c.Receive()); err != nil {
		return s, err
	}
	if s.Count, err = redis.Int(c.Receive()); err != nil {
		return s, err
	}
	s.Archived, err = redis.Int(c.Receive())
	return s, err
}

// Replace swaps a bidder's whole watchlist atomically.
func (l *Lists) Replace(ctx context.Context, b keys.BidderID, ids []keys.LotID) error {
	// case B69: none
	c, err := l.conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := redisc.BindConn(c, b.Watchlist()); err != nil {
		return err
	}
	c.Send("MULTI")
	c.Send("DEL", b.Watchlist(), b.Archive())
	if len(ids) > 0 {
		c.Send("SADD", redis.Args{}.Add(b.Watchlist()).AddFlat(ids)...)
	}
	_, err = c.Do("EXEC")
	return err
}

// Unwatch removes the lot from the bidder's list and the bidder from the
// lot's watchers in one MULTI/EXEC.
func (l *Lists) Unwatch(ctx context.Context, b keys.BidderID, id keys.LotID) error {
	// case B70: crossslot
	c, err := l.conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := redisc.BindConn(c, b.Watchlist()); err != nil {
		return err
	}
	c.Send("MULTI")
	c.Send("SREM", b.Watchlist(), id.String())
	c.Send("SREM", id.Watchers(), b.String())
	_, err = c.Do("EXEC")
	return err
}

// MoveToArchive moves a lot from the active list to the archive.
func (l *Lists) MoveToArchive(ctx context.Context, b keys.BidderID, id keys.LotID) (bool, error) {
	// case B71: none
	c, err := l.retrying(ctx)
	if err != nil {
		return false, err
	}
	defer c.Close()
	return redis.Bool(c.Do("SMOVE", b.Watchlist(), b.Archive(), id.String()))
}

// Household merges two bidders' watchlists into the first one's household view.
func (l *Lists) Household(ctx context.Context, a, other keys.BidderID) (int, error) {
	// case B72: crossslot
	c, err := l.retrying(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return redis.Int(c.Do("SUNIONSTORE", a.Household(), a.Watchlist(), other.Watchlist()))
}

// MarkSeen records that a bidder opened a lot page.
func (l *Lists) MarkSeen(ctx context.Context, b keys.BidderID, id keys.LotID) error {
	c, err := l.retrying(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Do("SADD", keys.SeenKey(b), id.String())
	return err
}

// UnseenWatched lists watched lots the bidder has not opened yet.
func (l *Lists) UnseenWatched(ctx context.Context, b keys.BidderID) ([]string, error) {
	// case B73: crossslot, unclosedtag
	c, err := l.retrying(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return redis.Strings(c.Do("SDIFF", b.Watchlist(), keys.SeenKey(b)))
}

// SetFlags stores moderation flags of a lot.
func (l *Lists) SetFlags(ctx context.Context, id keys.LotID, flags map[string]string) error {
	// case B74: none
	c, err := l.retrying(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Do("HSET", redis.Args{}.Add(id.Flags()).AddFlat(flags)...)
	return err
}

// MarkEnding flags a lot as ending soon and remembers it as the bidder's
// last alert, in one MSET.
func (l *Lists) MarkEnding(ctx context.Context, id keys.LotID, b keys.BidderID) error {
	// case B75: crossslot
	c, err := l.retrying(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	vals := map[string]string{
		id.Ending():   "1",
		b.LastAlert(): id.String(),
	}
	_, err = c.Do("MSET", redis.Args{}.AddFlat(vals)...)
	return err
}

// Clear removes all watchlist data of a bidder (GDPR erase).
func (l *Lists) Clear(ctx context.Context, b keys.BidderID) (int, error) {
	// case B76: none
	c, err := l.retrying(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	n, err := redis.Int(c.Do("DEL", redis.Args{}.Add(b.Watchlist(), b.Archive(), b.Household(), b.LastAlert())...))
	if err != nil {
		return 0, fmt.Errorf("watch: clear %s: %w", b, err)
	}
	return n, nil
}
