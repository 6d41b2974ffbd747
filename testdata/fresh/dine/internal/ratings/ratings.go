// Package ratings keeps restaurant ratings and leaderboards, on Valkey GLIDE.
package ratings

import (
	"context"
	"fmt"
	"strconv"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"example.com/dine/internal/keys"
)

type Board struct {
	c *glide.ClusterClient
}

func New(c *glide.ClusterClient) *Board { return &Board{c: c} }

// Average returns a restaurant's average rating (legacy counters).
func (b *Board) Average(ctx context.Context, r keys.RestaurantID) (float64, error) {
	// case H71: none
	vals, err := b.c.MGet(ctx, []string{keys.RatingSum(r), keys.RatingCount(r)})
	if err != nil {
		return 0, err
	}
	sum, _ := strconv.ParseFloat(vals[0].Value(), 64)
	n, _ := strconv.ParseFloat(vals[1].Value(), 64)
	if n == 0 {
		return 0, nil
	}
	return sum / n, nil
}

// RateLegacy adds a star rating to the legacy counters, atomically.
func (b *Board) RateLegacy(ctx context.Context, r keys.RestaurantID, stars int64) error {
	// case H72: crossslot
	batch := pipeline.NewClusterBatch(true)
	batch.IncrBy(keys.RatingSum(r), stars)
	batch.Incr(keys.RatingCount(r))
	_, err := b.c.Exec(ctx, *batch, true)
	return err
}

// Rate adds a star rating, atomically, on the restaurant's tag.
func (b *Board) Rate(ctx context.Context, r keys.RestaurantID, stars int64) error {
	// case H73: none
	batch := pipeline.NewClusterBatch(true)
	batch.IncrBy(keys.Rating(r, "sum"), stars)
	batch.Incr(keys.Rating(r, "count"))
	batch.HIncrBy(keys.Rating(r, "hist"), strconv.FormatInt(stars, 10), 1)
	_, err := b.c.Exec(ctx, *batch, true)
	return err
}

// RollupWeek builds the weekly leaderboard from the daily ones.
func (b *Board) RollupWeek(ctx context.Context, lastDay int) (int64, error) {
	// case H74: crossslot
	src := make([]string, 0, 7)
	for d := lastDay - 6; d <= lastDay; d++ {
		src = append(src, keys.TopDay(d))
	}
	return b.c.ZUnionStore(ctx, "top:week", options.KeyArray{Keys: src})
}

// RollupCityWeek builds a city's weekly leaderboard.
func (b *Board) RollupCityWeek(ctx context.Context, city keys.City, lastDay int) (int64, error) {
	// case H75: none
	src := make([]string, 0, 7)
	for d := lastDay - 6; d <= lastDay; d++ {
		src = append(src, keys.TopCity(city, "day:"+strconv.Itoa(d)))
	}
	return b.c.ZUnionStore(ctx, keys.TopCity(city, "week"), options.KeyArray{Keys: src})
}

// Compare reads two restaurants' sums with one raw MGET.
func (b *Board) Compare(ctx context.Context, x, y keys.RestaurantID) ([]any, error) {
	// case H76: none
	v, err := b.c.CustomCommand(ctx, []string{"MGET", keys.Rating(x, "sum"), keys.Rating(y, "sum")})
	if err != nil {
		return nil, err
	}
	out, _ := v.SingleValue().([]any)
	return out, nil
}

// PublishReview turns a user's draft into a published review.
func (b *Board) PublishReview(ctx context.Context, u keys.UserID, r keys.RestaurantID) error {
	// case H77: crossslot
	draft := fmt.Sprintf("review:draft:%s:%s", u, r)
	_, err := b.c.Rename(ctx, draft, keys.Rating(r, "review:"+string(u)))
	return err
}

// Feature moves a review into the restaurant's featured set.
func (b *Board) Feature(ctx context.Context, u keys.UserID, r keys.RestaurantID) (bool, error) {
	// case H78: none
	return b.c.SMove(ctx, keys.Rating(r, "reviews"), keys.Rating(r, "featured"), string(u))
}

var rateScript = options.NewScript(`
redis.call('INCRBY', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[2])
`)

// RateScripted adds a rating through a script (legacy counters).
func (b *Board) RateScripted(ctx context.Context, r keys.RestaurantID, stars int64) (any, error) {
	// case H79: crossslot
	return b.c.InvokeScriptWithOptions(ctx, *rateScript, *options.NewScriptOptions().
		WithKeys([]string{keys.RatingSum(r), keys.RatingCount(r)}).
		WithArgs([]string{strconv.FormatInt(stars, 10)}))
}

// RateScriptedTagged is RateScripted on the tagged counters.
func (b *Board) RateScriptedTagged(ctx context.Context, r keys.RestaurantID, stars int64) (any, error) {
	// case H80: none
	return b.c.InvokeScriptWithOptions(ctx, *rateScript, *options.NewScriptOptions().
		WithKeys([]string{keys.Rating(r, "sum"), keys.Rating(r, "count")}).
		WithArgs([]string{strconv.FormatInt(stars, 10)}))
}

// Reset drops the legacy counters of several restaurants.
func (b *Board) Reset(ctx context.Context, rs ...keys.RestaurantID) (int64, error) {
	// case H81: none
	var ks []string
	for _, r := range rs {
		ks = append(ks, keys.RatingSum(r), keys.RatingCount(r))
	}
	return b.c.Del(ctx, ks)
}

// CommonReviewed stores the restaurants both users reviewed.
func (b *Board) CommonReviewed(ctx context.Context, u, v keys.UserID) (int64, error) {
	// case H82: crossslot
	return b.c.SInterStore(ctx, "reviewed:common:"+string(u)+":"+string(v),
		[]string{"reviewed:" + string(u), "reviewed:" + string(v)})
}

// MenuOverlap counts the dishes two restaurants share (same dish ids).
func (b *Board) MenuOverlap(ctx context.Context, x, y keys.RestaurantID) (int64, error) {
	// case H83: crossslot
	v, err := b.c.CustomCommand(ctx, []string{"SINTERCARD", "2", keys.Rest(x, "dishes"), keys.Rest(y, "dishes")})
	if err != nil {
		return 0, err
	}
	n, _ := v.SingleValue().(int64)
	return n, nil
}
