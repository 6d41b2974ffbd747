// Package campaigns runs bonus-points campaigns: a budget of points, a
// multiplier, the partner stores that take part.
package campaigns

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"

	"example.com/loyalty/internal/keys"
	"example.com/loyalty/internal/partners"
)

// ErrBudgetExhausted is returned when a campaign has no points left.
var ErrBudgetExhausted = errors.New("campaigns: budget exhausted")

// store is what the campaign engine needs from the adapter.
type store interface {
	MGet(ctx context.Context, keys ...string) *valkeycompat.SliceCmd
	Set(ctx context.Context, key string, value any, expiration time.Duration) *valkeycompat.StatusCmd
	Rename(ctx context.Context, key, newkey string) *valkeycompat.StatusCmd
	SUnionStore(ctx context.Context, destination string, keys ...string) *valkeycompat.IntCmd
	Pipelined(ctx context.Context, fn func(valkeycompat.Pipeliner) error) ([]valkeycompat.Cmder, error)
	Watch(ctx context.Context, fn func(valkeycompat.Tx) error, keys ...string) error
	valkeycompat.Scripter
}

// Engine is the campaign repository.
type Engine struct {
	db store
}

// NewEngine returns an Engine.
func NewEngine(db valkeycompat.Cmdable) *Engine { return &Engine{db: db} }

type campaignKey struct{ id keys.CampaignID }

func key(c keys.CampaignID) campaignKey { return campaignKey{c} }

func (k campaignKey) field(f string) string { return "campaign:{" + string(k.id) + "}:" + f }
func (k campaignKey) Budget() string        { return k.field("budget") }
func (k campaignKey) Spent() string         { return k.field("spent") }
func (k campaignKey) Active() string        { return k.field("active") }
func (k campaignKey) Multiplier() string    { return k.field("multiplier") }
func (k campaignKey) Rules() string         { return k.field("rules") }
func (k campaignKey) Draft() string         { return k.field("draft") }
func (k campaignKey) Reach() string         { return k.field("reach") }
func (k campaignKey) LegacyDraft() string   { return "campaign:draft:" + string(k.id) }

// Launch creates a campaign.
func (e *Engine) Launch(ctx context.Context, c keys.CampaignID, budget int64, mult float64) error {
	_, err := e.db.Pipelined(ctx, func(p valkeycompat.Pipeliner) error {
		k := key(c)
		p.Set(ctx, k.Budget(), budget, 0)
		p.Set(ctx, k.Spent(), 0, 0)
		p.Set(ctx, k.Active(), 1, 0)
		p.Set(ctx, k.Multiplier(), strconv.FormatFloat(mult, 'f', -1, 64), 0)
		return nil
	})
	return err
}

// ActiveFlags tells which of the campaigns are running, for the POS.
func (e *Engine) ActiveFlags(ctx context.Context, cs ...keys.CampaignID) ([]bool, error) {
	// case L51: crossslot
	ks := make([]string, len(cs))
	for i, c := range cs {
		ks[i] = key(c).Active()
	}
	vals, err := e.db.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(vals))
	for i, v := range vals {
		out[i] = v == "1"
	}
	return out, nil
}

// Settings returns a campaign's active flag and multiplier.
func (e *Engine) Settings(ctx context.Context, c keys.CampaignID) (bool, float64, error) {
	// case L52: none
	k := key(c)
	vals, err := e.db.MGet(ctx, k.Active(), k.Multiplier()).Result()
	if err != nil {
		return false, 0, err
	}
	m, _ := vals[1].(string)
	mult, _ := strconv.ParseFloat(m, 64)
	return vals[0] == "1", mult, nil
}

// Multipliers reads several campaigns' multipliers in one pipeline.
func (e *Engine) Multipliers(ctx context.Context, cs ...keys.CampaignID) (map[keys.CampaignID]float64, error) {
	// case L53: none
	cmds := make(map[keys.CampaignID]*valkeycompat.StringCmd, len(cs))
	_, err := e.db.Pipelined(ctx, func(p valkeycompat.Pipeliner) error {
		for _, c := range cs {
			cmds[c] = p.Get(ctx, key(c).Multiplier())
		}
		return nil
	})
	if err != nil && !valkey.IsValkeyNil(err) {
		return nil, err
	}
	out := make(map[keys.CampaignID]float64, len(cs))
	for c, cmd := range cmds {
		out[c], _ = cmd.Float64()
	}
	return out, nil
}

var spend = valkeycompat.NewScript(`
local budget = tonumber(redis.call('GET', KEYS[1]) or '0')
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
local n = tonumber(ARGV[1])
if spent + n > budget then return -1 end
redis.call('INCRBY', KEYS[2], n)
return budget - spent - n
`)

// Spend books bonus points against a campaign's budget.
func (e *Engine) Spend(ctx context.Context, c keys.CampaignID, pts int64) (int64, error) {
	// case L54: none
	k := key(c)
	left, err := spend.Run(ctx, e.db, []string{k.Budget(), k.Spent()}, pts).Int64()
	if err == nil && left < 0 {
		return 0, ErrBudgetExhausted
	}
	return left, err
}

var spendAtPartner = valkeycompat.NewScript(`
local budget = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = tonumber(ARGV[1])
if n > budget then return -1 end
redis.call('DECRBY', KEYS[1], n)
redis.call('INCRBY', KEYS[2], n)
return budget - n
`)

// SpendAtPartner books bonus points given at a partner store: the campaign
// pays them and the chain owes the partner for them.
func (e *Engine) SpendAtPartner(ctx context.Context, c keys.CampaignID, s keys.StoreID, pts int64) (int64, error) {
	// case L55: crossslot
	left, err := spendAtPartner.Run(ctx, e.db, []string{key(c).Budget(), partners.PayableKey(s)}, pts).Int64()
	if err == nil && left < 0 {
		return 0, ErrBudgetExhausted
	}
	return left, err
}

// Reach stores in the campaign's reach set every member of its partners.
func (e *Engine) Reach(ctx context.Context, c keys.CampaignID, ss ...keys.StoreID) (int64, error) {
	// case L56: crossslot
	src := make([]string, 0, len(ss))
	for _, s := range ss {
		src = append(src, partners.MembersKey(s))
	}
	return e.db.SUnionStore(ctx, key(c).Reach(), src...).Result()
}

// SaveLegacyDraft writes rules from the old back office.
func (e *Engine) SaveLegacyDraft(ctx context.Context, c keys.CampaignID, rules string) error {
	return e.db.Set(ctx, key(c).LegacyDraft(), rules, 0).Err()
}

// PublishLegacy makes a draft from the old back office live.
func (e *Engine) PublishLegacy(ctx context.Context, c keys.CampaignID) error {
	// case L57: crossslot
	return e.db.Rename(ctx, key(c).LegacyDraft(), key(c).Rules()).Err()
}

// SaveDraft writes draft rules.
func (e *Engine) SaveDraft(ctx context.Context, c keys.CampaignID, rules string) error {
	return e.db.Set(ctx, key(c).Draft(), rules, 0).Err()
}

// Publish makes a draft live.
func (e *Engine) Publish(ctx context.Context, c keys.CampaignID) error {
	// case L58: none
	return e.db.Rename(ctx, key(c).Draft(), key(c).Rules()).Err()
}

// Reimburse moves what a campaign spent at a partner out of the partner's
// payable balance once finance settles it with the campaign sponsor.
func (e *Engine) Reimburse(ctx context.Context, c keys.CampaignID, s keys.StoreID, pts int64) error {
	// case L59: crossslot
	k := key(c)
	return e.db.Watch(ctx, func(tx valkeycompat.Tx) error {
		owed, err := tx.Get(ctx, partners.PayableKey(s)).Int64()
		if err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p valkeycompat.Pipeliner) error {
			p.Set(ctx, partners.PayableKey(s), max(owed-pts, 0), 0)
			p.IncrBy(ctx, k.Spent(), -pts)
			return nil
		})
		return err
	}, partners.PayableKey(s), k.Spent())
}
