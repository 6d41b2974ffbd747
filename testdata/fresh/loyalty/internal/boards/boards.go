// Package boards keeps the leaderboards of points campaigns and store
// challenges (the "top earners this week" screens). It runs on Valkey GLIDE
// like the fraud service.
package boards

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"slices"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"example.com/loyalty/internal/keys"
)

// Board is a leaderboard's identity: a campaign or a store challenge.
type Board string

// Key layout. Boards of one campaign share the board's tag.
func scores(b Board) string               { return "lb:{" + string(b) + "}:scores" }
func top(b Board) string                  { return "lb:{" + string(b) + "}:top" }
func snapshot(b Board, d keys.Day) string { return fmt.Sprintf("lb:{%s}:snapshot:%s", b, d) }
func final(b Board) string                { return "lb:{" + string(b) + "}:final" }
func publicTop(b Board) string            { return "lb:top:" + string(b) }
func archive(b Board, d keys.Day) string  { return fmt.Sprintf("lb:archive:%s:%s", b, d) }

// Weekly boards were written before the cluster move; the monthly rollup of
// the v2 layout keeps a month's boards on the month's tag.
func weekly(week string) string               { return "lb:weekly:" + week }
func monthly(month string) string             { return "lb:monthly:" + month }
func monthWeek(month string, week int) string { return fmt.Sprintf("lb:{%s}:week:%d", month, week) }
func monthTotal(month string) string          { return fmt.Sprintf("lb:{%s}:total", month) }

// Service is the leaderboard service.
type Service struct {
	g    *glide.ClusterClient
	size int64
}

// New returns a Service that keeps the top size entries.
func New(g *glide.ClusterClient, size int64) *Service { return &Service{g: g, size: size} }

// Add adds points to a member's score on a board.
func (s *Service) Add(ctx context.Context, b Board, m keys.MemberID, pts float64) error {
	_, err := s.g.ZIncrBy(ctx, scores(b), pts, string(m))
	return err
}

// AddWeekly adds points to a member's weekly score (both layouts).
func (s *Service) AddWeekly(ctx context.Context, month string, weekNo int, week string, m keys.MemberID, pts float64) error {
	if _, err := s.g.ZIncrBy(ctx, weekly(week), pts, string(m)); err != nil {
		return err
	}
	_, err := s.g.ZIncrBy(ctx, monthWeek(month, weekNo), pts, string(m))
	return err
}

// RollupMonth sums the weekly boards into the month's board.
func (s *Service) RollupMonth(ctx context.Context, month string, weeks ...string) (int64, error) {
	// case L73: crossslot
	src := make([]string, len(weeks))
	for i, w := range weeks {
		src[i] = weekly(w)
	}
	return s.g.ZUnionStore(ctx, monthly(month), options.KeyArray{Keys: src})
}

// RollupMonthV2 is RollupMonth on the v2 layout.
func (s *Service) RollupMonthV2(ctx context.Context, month string, weeks int) (int64, error) {
	// case L74: none
	src := make([]string, 0, weeks)
	for w := range weeks {
		src = append(src, monthWeek(month, w+1))
	}
	return s.g.ZUnionStore(ctx, monthTotal(month), options.KeyArray{Keys: src})
}

// RefreshTop caches the board's top entries for the app.
func (s *Service) RefreshTop(ctx context.Context, b Board) (int64, error) {
	// case L75: none
	return s.g.ZRangeStore(ctx, top(b), scores(b), options.NewRangeByIndexQuery(0, s.size-1).SetReverse())
}

// PublishTop writes the board's top entries where the public web site's
// CDN job reads them.
func (s *Service) PublishTop(ctx context.Context, b Board) (int64, error) {
	// case L76: crossslot
	return s.g.ZRangeStore(ctx, publicTop(b), scores(b), options.NewRangeByIndexQuery(0, s.size-1).SetReverse())
}

// Snapshot copies the board at the end of a day.
func (s *Service) Snapshot(ctx context.Context, b Board, d keys.Day) (bool, error) {
	// case L77: none
	return s.g.Copy(ctx, scores(b), snapshot(b, d))
}

// Archive copies the board to the archive the BI export reads.
func (s *Service) Archive(ctx context.Context, b Board, d keys.Day) (bool, error) {
	// case L78: crossslot
	return s.g.Copy(ctx, scores(b), archive(b, d))
}

// Award credits bonus points to each winner's board entry and balance in one
// pipeline; each command stands alone.
func (s *Service) Award(ctx context.Context, b Board, ledger keys.Keyspace, winners map[keys.MemberID]int64) error {
	// case L79: none
	batch := pipeline.NewClusterBatch(false)
	for _, m := range slices.Sorted(maps.Keys(winners)) {
		pts := winners[m]
		batch.ZIncrBy(scores(b), float64(pts), string(m))
		batch.IncrBy(ledger.Balance(m), pts)
	}
	_, err := s.g.Exec(ctx, *batch, true)
	return err
}

// Close freezes a board at the end of its campaign: its scores become the
// final board and the public top list is withdrawn, atomically.
func (s *Service) Close(ctx context.Context, b Board) error {
	// case L80: crossslot
	batch := pipeline.NewClusterBatch(true).
		Rename(scores(b), final(b)).
		Del([]string{publicTop(b)})
	_, err := s.g.Exec(ctx, *batch, true)
	return err
}

// Overlap counts the members present on every one of the given boards' keys,
// for the marketing report builder (which names the keys).
func (s *Service) Overlap(ctx context.Context, boardKeys iter.Seq[string]) (int64, error) {
	// case L81: crossslot?
	return s.g.ZInterCard(ctx, slices.Collect(boardKeys))
}
