// Package hot maintains the "hot lots" leaderboards shown on the home page.
package hot

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// Boards rolls up and reads leaderboards.
type Boards struct {
	rdb redis.UniversalClient
}

func NewBoards(rdb redis.UniversalClient) *Boards { return &Boards{rdb: rdb} }

// Bump scores activity on a lot in the current hour.
func (b *Boards) Bump(ctx context.Context, board keys.Board, id keys.LotID, at time.Time, by float64) error {
	return b.rdb.ZIncrBy(ctx, board.Hour(at), by, id.String()).Err()
}

// RollupDay merges the 24 hourly boards of a day into the daily board.
func (b *Boards) RollupDay(ctx context.Context, board keys.Board, day time.Time) (int64, error) {
	// case B20: none
	return b.rdb.ZUnionStore(ctx, board.Day(day), &redis.ZStore{
		Keys:      board.HoursOf(day),
		Aggregate: "SUM",
	}).Result()
}

// RollupCategories builds the site-wide board from the per-category boards.
func (b *Boards) RollupCategories(ctx context.Context, categories ...string) (int64, error) {
	// case B21: crossslot
	src := make([]string, 0, len(categories))
	for _, c := range categories {
		src = append(src, keys.CategoryHot(c))
	}
	return b.rdb.ZUnionStore(ctx, keys.HotGlobal, &redis.ZStore{Keys: src, Aggregate: "MAX"}).Result()
}

// CountView records a unique viewer for a lot from one source (web/app).
func (b *Boards) CountView(ctx context.Context, id keys.LotID, source, visitor string) error {
	return b.rdb.PFAdd(ctx, id.Viewers(source), visitor).Err()
}

// UniqueViewers estimates distinct viewers of a lot across web and app.
func (b *Boards) UniqueViewers(ctx context.Context, id keys.LotID) (int64, error) {
	// case B22: none
	return b.rdb.PFCount(ctx, id.Viewers("web"), id.Viewers("app")).Result()
}

// UniqueViewersAcross estimates the audience shared by a lot and its relisting.
func (b *Boards) UniqueViewersAcross(ctx context.Context, a, c keys.LotID) (int64, error) {
	// case B23: crossslot
	return b.rdb.PFCount(ctx, a.Viewers("web"), c.Viewers("web")).Result()
}

// TopWatchedByPrice orders the watched lots of a board by their live price.
func (b *Boards) TopWatchedByPrice(ctx context.Context, board keys.Board, n int64) ([]string, error) {
	// case B24: sortpattern
	return b.rdb.Sort(ctx, board.Watched(), &redis.Sort{
		By:    "lot:{*}:high",
		Order: "DESC",
		Count: n,
	}).Result()
}

// RecentHighBids returns the largest recent bids seen on a board.
func (b *Boards) RecentHighBids(ctx context.Context, board keys.Board, n int64) ([]string, error) {
	// case B25: none
	return b.rdb.Sort(ctx, board.RecentBids(), &redis.Sort{
		Order: "DESC",
		Count: n,
	}).Result()
}
