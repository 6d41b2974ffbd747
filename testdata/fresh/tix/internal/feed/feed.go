// Package feed builds fans' home feeds from the artists they follow, and
// streams artists' live updates.
package feed

import (
	"context"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// Post is an artist announcement.
type Post struct {
	ID     string
	Artist keyspace.ArtistID
	At     time.Time
}

// Feeds is the fan-feed store.
type Feeds struct {
	rdb redis.UniversalClient
	max int64
}

// New returns a feed store keeping max entries per fan.
func New(rdb redis.UniversalClient, max int64) *Feeds {
	return &Feeds{rdb: rdb, max: max}
}

// typed key helpers
type fanKeys keyspace.UserID

func (f fanKeys) feed() string    { return keyspace.User.Tag(keyspace.UserID(f), "feed") }
func (f fanKeys) follows() string { return keyspace.User.Tag(keyspace.UserID(f), "follows") }
func (f fanKeys) seen() string    { return keyspace.User.Tag(keyspace.UserID(f), "seen") }

type artistKeys keyspace.ArtistID

func (a artistKeys) posts() string     { return keyspace.Artist.Tag(keyspace.ArtistID(a), "posts") }
func (a artistKeys) followers() string { return keyspace.Artist.Tag(keyspace.ArtistID(a), "followers") }
func (a artistKeys) live() string      { return "live:" + string(a) }

// Announce stores an artist's post in their timeline.
func (f *Feeds) Announce(ctx context.Context, p Post) error {
	return f.rdb.ZAdd(ctx, artistKeys(p.Artist).posts(), redis.Z{Score: float64(p.At.Unix()), Member: p.ID}).Err()
}

// Rebuild recomputes a fan's feed from the timelines of the artists they
// follow.
func (f *Feeds) Rebuild(ctx context.Context, u keyspace.UserID, artists ...keyspace.ArtistID) (int64, error) {
	// case T70: crossslot
	srcs := make([]string, len(artists))
	for i, a := range artists {
		srcs[i] = artistKeys(a).posts()
	}
	return f.rdb.ZUnionStore(ctx, fanKeys(u).feed(), &redis.ZStore{Keys: srcs, Aggregate: "MAX"}).Result()
}

// RebuildV2 reads each timeline and writes the merged feed itself.
func (f *Feeds) RebuildV2(ctx context.Context, u keyspace.UserID, artists ...keyspace.ArtistID) (int64, error) {
	// case T71: none
	cmds := make([]*redis.ZSliceCmd, len(artists))
	_, err := f.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, a := range artists {
			cmds[i] = p.ZRevRangeWithScores(ctx, artistKeys(a).posts(), 0, f.max-1)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	var all []redis.Z
	for _, c := range cmds {
		all = append(all, c.Val()...)
	}
	if len(all) == 0 {
		return 0, nil
	}
	_, err = f.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, fanKeys(u).feed())
		p.ZAdd(ctx, fanKeys(u).feed(), all...)
		p.ZRemRangeByRank(ctx, fanKeys(u).feed(), 0, -f.max-1)
		return nil
	})
	return int64(len(all)), err
}

// Follow makes a fan follow an artist, on both sides, atomically.
func (f *Feeds) Follow(ctx context.Context, u keyspace.UserID, a keyspace.ArtistID) error {
	// case T72: crossslot
	_, err := f.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, fanKeys(u).follows(), string(a))
		p.SAdd(ctx, artistKeys(a).followers(), string(u))
		return nil
	})
	return err
}

// FollowV2 writes both sides in one pipeline; the nightly job repairs a
// half-written pair.
func (f *Feeds) FollowV2(ctx context.Context, u keyspace.UserID, a keyspace.ArtistID) error {
	// case T73: none
	_, err := f.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, fanKeys(u).follows(), string(a))
		p.SAdd(ctx, artistKeys(a).followers(), string(u))
		return nil
	})
	return err
}

// Mutuals lists the artists two fans both follow ("friends also like").
func (f *Feeds) Mutuals(ctx context.Context, a, b keyspace.UserID) ([]string, error) {
	// case T74: crossslot
	return f.rdb.SInter(ctx, fanKeys(a).follows(), fanKeys(b).follows()).Result()
}

// MutualsV2 intersects in the service.
func (f *Feeds) MutualsV2(ctx context.Context, a, b keyspace.UserID) ([]string, error) {
	// case T75: none
	sa, err := f.rdb.SMembers(ctx, fanKeys(a).follows()).Result()
	if err != nil {
		return nil, err
	}
	sb, err := f.rdb.SMembers(ctx, fanKeys(b).follows()).Result()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range sa {
		if slices.Contains(sb, m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// Unseen returns the posts of a fan's feed they have not opened yet.
func (f *Feeds) Unseen(ctx context.Context, u keyspace.UserID) ([]string, error) {
	// case T76: none
	k := fanKeys(u)
	return f.rdb.ZDiff(ctx, k.feed(), k.seen()).Result()
}

// Fanout pushes a post to followers' feeds in one transaction, so that a fan
// never sees half a fan-out.
func (f *Feeds) Fanout(ctx context.Context, p Post, followers []keyspace.UserID) error {
	// case T77: crossslot
	_, err := f.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, u := range followers {
			pipe.ZAdd(ctx, fanKeys(u).feed(), redis.Z{Score: float64(p.At.Unix()), Member: p.ID})
		}
		return nil
	})
	return err
}

// FanoutV2 pipelines the pushes; each is atomic on its own.
func (f *Feeds) FanoutV2(ctx context.Context, p Post, followers []keyspace.UserID) error {
	// case T78: none
	_, err := f.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, u := range followers {
			pipe.ZAdd(ctx, fanKeys(u).feed(), redis.Z{Score: float64(p.At.Unix()), Member: p.ID})
			pipe.ZRemRangeByRank(ctx, fanKeys(u).feed(), 0, -f.max-1)
		}
		return nil
	})
	return err
}

// Live subscribes to the live channels of several artists (a fan's "now
// playing" page). The first message confirms the subscription.
func (f *Feeds) Live(ctx context.Context, artists ...keyspace.ArtistID) (*redis.PubSub, error) {
	// case T79: shardedpubsub
	chans := make([]string, len(artists))
	for i, a := range artists {
		chans[i] = artistKeys(a).live()
	}
	ps := f.rdb.SSubscribe(ctx, chans...)
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// LiveOne subscribes to one artist's live channel.
func (f *Feeds) LiveOne(ctx context.Context, a keyspace.ArtistID) (*redis.PubSub, error) {
	// case T80: none
	ps := f.rdb.SSubscribe(ctx, artistKeys(a).live())
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}
