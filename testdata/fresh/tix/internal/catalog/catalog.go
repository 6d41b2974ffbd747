// Package catalog is the events and venues catalog: what is on sale, where,
// and how many tickets are left.
package catalog

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
	"example.com/tix/internal/repo"
)

// Event is the public description of an event.
type Event struct {
	ID       keyspace.EventID `json:"id"`
	Venue    keyspace.VenueID `json:"venue"`
	Title    string           `json:"title"`
	StartsAt time.Time        `json:"starts_at"`
	Capacity int64            `json:"capacity"`
}

// Venue is a place events happen in.
type Venue struct {
	ID   keyspace.VenueID `json:"id"`
	Name string           `json:"name"`
	City string           `json:"city"`
}

// Catalog owns the event and venue keys.
type Catalog struct {
	rdb    redis.UniversalClient
	Events *repo.Repo[keyspace.EventID, Event]
	Venues *repo.Repo[keyspace.VenueID, Venue]
}

// New wires a catalog on one client.
func New(rdb redis.UniversalClient) *Catalog {
	return &Catalog{
		rdb:    rdb,
		Events: repo.New[keyspace.EventID, Event](rdb, keyspace.Event, repo.Options{}),
		Venues: repo.New[keyspace.VenueID, Venue](rdb, keyspace.Venue, repo.Options{TTL: 24 * time.Hour}),
	}
}

const onSaleKey = "events:onsale"

// Snapshot is the event page header: title and tickets left.
type Snapshot struct {
	Title     string
	Available int64
}

// Snapshot reads the event's title and stock counter.
func (c *Catalog) Snapshot(ctx context.Context, id keyspace.EventID) (Snapshot, error) {
	// case T6: crossslot
	vals, err := c.rdb.MGet(ctx, keyspace.Event.Key(id, "title"), keyspace.Event.Key(id, "available")).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return toSnapshot(vals), nil
}

// SnapshotV2 is Snapshot on the cluster layout.
func (c *Catalog) SnapshotV2(ctx context.Context, id keyspace.EventID) (Snapshot, error) {
	// case T7: none
	vals, err := c.rdb.MGet(ctx, keyspace.Event.Tag(id, "title"), keyspace.Event.Tag(id, "available")).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return toSnapshot(vals), nil
}

func toSnapshot(vals []any) Snapshot {
	var s Snapshot
	if t, ok := vals[0].(string); ok {
		s.Title = t
	}
	if a, ok := vals[1].(string); ok {
		s.Available, _ = strconv.ParseInt(a, 10, 64)
	}
	return s
}

// Publish puts an event on sale: its fields, its stock, and the on-sale index.
func (c *Catalog) Publish(ctx context.Context, e Event) error {
	// case T8: crossslot
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, keyspace.Event.Tag(e.ID, "meta"), "title", e.Title, "venue", e.Venue.String(), "starts_at", e.StartsAt.Unix())
		p.Set(ctx, keyspace.Event.Tag(e.ID, "available"), e.Capacity, 0)
		p.ZAdd(ctx, onSaleKey, redis.Z{Score: float64(e.StartsAt.Unix()), Member: e.ID.String()})
		return nil
	})
	return err
}

// PublishV2 writes the event atomically and indexes it afterwards; the index
// is rebuilt nightly, so a crash between the two is harmless.
func (c *Catalog) PublishV2(ctx context.Context, e Event) error {
	// case T9: none
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, keyspace.Event.Tag(e.ID, "meta"), "title", e.Title, "venue", e.Venue.String(), "starts_at", e.StartsAt.Unix())
		p.Set(ctx, keyspace.Event.Tag(e.ID, "title"), e.Title, 0)
		p.Set(ctx, keyspace.Event.Tag(e.ID, "available"), e.Capacity, 0)
		return nil
	})
	if err != nil {
		return err
	}
	return c.rdb.ZAdd(ctx, onSaleKey, redis.Z{Score: float64(e.StartsAt.Unix()), Member: e.ID.String()}).Err()
}

// Archive moves a finished event's fields out of the live keyspace.
func (c *Catalog) Archive(ctx context.Context, id keyspace.EventID) error {
	// case T10: crossslot
	return c.rdb.Rename(ctx, keyspace.Event.Tag(id, "meta"), keyspace.Archive.Key(id)).Err()
}

// Retire keeps a finished event's fields next to it, under an archived name.
func (c *Catalog) Retire(ctx context.Context, id keyspace.EventID) error {
	// case T11: none
	return c.rdb.Rename(ctx, keyspace.Event.Tag(id, "meta"), keyspace.Event.Tag(id, "archived")).Err()
}

// CompareViews stores the union of two events' viewer sets for the
// marketing dashboard and returns its size.
func (c *Catalog) CompareViews(ctx context.Context, a, b keyspace.EventID) (int64, error) {
	// case T12: crossslot
	dst := fmt.Sprintf("dash:views:%d:%d", a, b)
	n, err := c.rdb.SUnionStore(ctx, dst, keyspace.Event.Tag(a, "viewers"), keyspace.Event.Tag(b, "viewers")).Result()
	if err != nil {
		return 0, err
	}
	c.rdb.Expire(ctx, dst, time.Hour)
	return n, nil
}

// AudienceOverlap counts the viewers two events share, computed in the
// service from both sets.
func (c *Catalog) AudienceOverlap(ctx context.Context, a, b keyspace.EventID) (int, error) {
	// case T13: none
	var sa, sb *redis.StringSliceCmd
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		sa = p.SMembers(ctx, keyspace.Event.Tag(a, "viewers"))
		sb = p.SMembers(ctx, keyspace.Event.Tag(b, "viewers"))
		return nil
	})
	if err != nil {
		return 0, err
	}
	seen := make(map[string]struct{}, len(sa.Val()))
	for _, m := range sa.Val() {
		seen[m] = struct{}{}
	}
	n := 0
	for _, m := range sb.Val() {
		if _, ok := seen[m]; ok {
			n++
		}
	}
	return n, nil
}

// TopSellers lists a venue's events by tickets sold, best first.
func (c *Catalog) TopSellers(ctx context.Context, v keyspace.VenueID, n int64) ([]string, error) {
	// case T14: sortpattern
	return c.rdb.Sort(ctx, keyspace.Venue.Tag(v, "events"), &redis.Sort{
		By:    "event:*:sold",
		Order: "DESC",
		Count: n,
	}).Result()
}

// TopSellersV2 keeps the sold counters in a sorted set of the venue itself.
func (c *Catalog) TopSellersV2(ctx context.Context, v keyspace.VenueID, n int64) ([]string, error) {
	// case T15: none
	return c.rdb.ZRevRange(ctx, keyspace.Venue.Tag(v, "sold"), 0, n-1).Result()
}

// Sell records n tickets sold for an event, in its counters and its venue's
// ranking.
func (c *Catalog) Sell(ctx context.Context, e Event, n int64) error {
	// case T16: crossslot
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.DecrBy(ctx, keyspace.Event.Tag(e.ID, "available"), n)
		p.ZIncrBy(ctx, keyspace.Venue.Tag(e.Venue, "sold"), float64(n), e.ID.String())
		return nil
	})
	return err
}

// SellV2 keeps the stock decrement atomic and updates the ranking on its own.
func (c *Catalog) SellV2(ctx context.Context, e Event, n int64) error {
	// case T17: none
	left, err := c.rdb.DecrBy(ctx, keyspace.Event.Tag(e.ID, "available"), n).Result()
	if err != nil {
		return err
	}
	if left < 0 {
		c.rdb.IncrBy(ctx, keyspace.Event.Tag(e.ID, "available"), n)
		return fmt.Errorf("event %d: sold out", e.ID)
	}
	return c.rdb.ZIncrBy(ctx, keyspace.Venue.Tag(e.Venue, "sold"), float64(n), e.ID.String()).Err()
}

// ArchiveToColdDB moves a finished event's meta hash into the cold database
// that reporting reads.
func (c *Catalog) ArchiveToColdDB(ctx context.Context, id keyspace.EventID) error {
	// case T18: database
	return c.rdb.Move(ctx, keyspace.Event.Tag(id, "meta"), 3).Err()
}
