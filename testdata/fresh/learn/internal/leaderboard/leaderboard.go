// Package leaderboard keeps course leaderboards and XP. The gamification team
// chose Valkey GLIDE.
package leaderboard

import (
	"context"
	"fmt"
	"strconv"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"example.com/learn/internal/ids"
)

// Board is the leaderboard store.
type Board struct {
	g  *glide.ClusterClient
	ns string // "lb"
}

// NewBoard returns a Board.
func NewBoard(g *glide.ClusterClient, ns string) *Board { return &Board{g: g, ns: ns} }

// weekly board, legacy layout: lb:<course>:w<week>
func (b *Board) weekKey(c ids.CourseID, week int) string {
	return fmt.Sprintf("%s:%s:w%d", b.ns, c, week)
}

// course-scoped keys, cluster layout: lb:{<course>}:<name>
func (b *Board) courseKey(c ids.CourseID, name string) string {
	return fmt.Sprintf("%s:{%s}:%s", b.ns, c, name)
}

// global XP of a learner: lb:xp:<user>
func (b *Board) xpKey(u ids.UserID) string { return b.ns + ":xp:" + string(u) }

func (b *Board) leagueKey(league string) string { return b.ns + ":league:" + league }

// MonthlyRollup sums the weekly boards of a course into its monthly board.
func (b *Board) MonthlyRollup(ctx context.Context, c ids.CourseID, weeks []int) (int64, error) {
	// case E51: crossslot
	src := make([]string, 0, len(weeks))
	for _, w := range weeks {
		src = append(src, b.weekKey(c, w))
	}
	return b.g.ZUnionStore(ctx, b.courseKey(c, "month"), options.KeyArray{Keys: src})
}

// MonthlyRollupV2 is MonthlyRollup with the weekly boards under the course tag.
func (b *Board) MonthlyRollupV2(ctx context.Context, c ids.CourseID, weeks []int) (int64, error) {
	// case E52: none
	src := make([]string, 0, len(weeks))
	for _, w := range weeks {
		src = append(src, b.courseKey(c, "w"+strconv.Itoa(w)))
	}
	return b.g.ZUnionStore(ctx, b.courseKey(c, "month"), options.KeyArray{Keys: src})
}

// Leaders reads the cached leader of each course for the home page.
func (b *Board) Leaders(ctx context.Context, cs []ids.CourseID) ([]string, error) {
	// case E53: none
	ks := make([]string, len(cs))
	for i, c := range cs {
		ks[i] = b.ns + ":leader:" + string(c)
	}
	res, err := b.g.MGet(ctx, ks)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = r.Value()
	}
	return out, nil
}

// AwardXP adds XP to the course board and to the learner's total, atomically.
func (b *Board) AwardXP(ctx context.Context, c ids.CourseID, u ids.UserID, xp int64) error {
	// case E54: crossslot
	tx := pipeline.NewClusterBatch(true).
		ZIncrBy(b.courseKey(c, "xp"), float64(xp), string(u)).
		IncrBy(b.xpKey(u), xp)
	_, err := b.g.Exec(ctx, *tx, true)
	return err
}

// AwardXPBatch is AwardXP as a plain pipeline: the two counters may drift on a
// failure, which the nightly job repairs.
func (b *Board) AwardXPBatch(ctx context.Context, c ids.CourseID, u ids.UserID, xp int64) error {
	// case E55: none
	batch := pipeline.NewClusterBatch(false).
		ZIncrBy(b.courseKey(c, "xp"), float64(xp), string(u)).
		IncrBy(b.xpKey(u), xp)
	_, err := b.g.Exec(ctx, *batch, true)
	return err
}

// bump adds XP to the course board and returns the learner's new total.
var bump = options.NewScript(`
redis.call('ZINCRBY', KEYS[1], ARGV[2], ARGV[1])
return redis.call('INCRBY', KEYS[2], ARGV[2])
`)

// Bump runs bump on the course board and the global XP counter.
func (b *Board) Bump(ctx context.Context, c ids.CourseID, u ids.UserID, xp int64) (any, error) {
	// case E56: crossslot
	opts := options.NewScriptOptions().
		WithKeys([]string{b.courseKey(c, "xp"), b.xpKey(u)}).
		WithArgs([]string{string(u), strconv.FormatInt(xp, 10)})
	return b.g.InvokeScriptWithOptions(ctx, *bump, *opts)
}

// BumpCourse runs bump on the course board and the learner's XP in that course.
func (b *Board) BumpCourse(ctx context.Context, c ids.CourseID, u ids.UserID, xp int64) (any, error) {
	// case E57: none
	opts := options.NewScriptOptions().
		WithKeys([]string{b.courseKey(c, "xp"), b.courseKey(c, "xp:"+string(u))}).
		WithArgs([]string{string(u), strconv.FormatInt(xp, 10)})
	return b.g.InvokeScriptWithOptions(ctx, *bump, *opts)
}

// ResetBoards clears the weekly board of several courses at the week's end.
func (b *Board) ResetBoards(ctx context.Context, cs []ids.CourseID, week int) (int64, error) {
	// case E58: none
	ks := make([]string, 0, len(cs))
	for _, c := range cs {
		ks = append(ks, b.weekKey(c, week))
	}
	return b.g.Del(ctx, ks)
}

// CommonTop stores who ranks on both courses' boards (for the "polymath" badge).
func (b *Board) CommonTop(ctx context.Context, a, c ids.CourseID) (any, error) {
	// case E59: crossslot
	res, err := b.g.CustomCommand(ctx, []string{
		"ZINTERSTORE", b.ns + ":polymath:" + string(a) + ":" + string(c), "2",
		b.courseKey(a, "xp"), b.courseKey(c, "xp"),
	})
	if err != nil {
		return nil, err
	}
	return res.SingleValue(), nil
}

// ActiveTop stores who ranks on a course's board and was active this week.
func (b *Board) ActiveTop(ctx context.Context, c ids.CourseID) (any, error) {
	// case E60: none
	res, err := b.g.CustomCommand(ctx, []string{
		"ZINTERSTORE", b.courseKey(c, "active-top"), "2",
		b.courseKey(c, "xp"), b.courseKey(c, "active"), "AGGREGATE", "MAX",
	})
	if err != nil {
		return nil, err
	}
	return res.SingleValue(), nil
}

// Promote moves a learner to the next league.
func (b *Board) Promote(ctx context.Context, u ids.UserID, from, to string) (bool, error) {
	// case E61: crossslot
	return b.g.SMove(ctx, b.leagueKey(from), b.leagueKey(to), string(u))
}

// PromoteInCourse moves a learner to the next league of a course.
func (b *Board) PromoteInCourse(ctx context.Context, c ids.CourseID, u ids.UserID, from, to string) (bool, error) {
	// case E62: none
	return b.g.SMove(ctx, b.courseKey(c, "league:"+from), b.courseKey(c, "league:"+to), string(u))
}
