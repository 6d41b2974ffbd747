// Package tiers decides member tiers (Blue, Silver, Gold, Platinum) from
// lifetime points and keeps tier membership sets for campaigns.
package tiers

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/loyalty/internal/keys"
)

// Tier is a membership level.
type Tier string

const (
	Blue     Tier = "blue"
	Silver   Tier = "silver"
	Gold     Tier = "gold"
	Platinum Tier = "platinum"
)

// Thresholds maps lifetime points to a tier, lowest first.
type Thresholds []struct {
	Points int64
	Tier   Tier
}

// For returns the tier for lifetime points.
func (t Thresholds) For(points int64) Tier {
	tier := Blue
	for _, th := range t {
		if points >= th.Points {
			tier = th.Tier
		}
	}
	return tier
}

// Service owns the tier keys.
type Service struct {
	c          *redis.ClusterClient
	thresholds Thresholds
	// TaggedKeys switches to the cluster key layout (tier keys under the
	// member's tag). main turns it on once the migration job ran.
	TaggedKeys bool
}

// New returns a Service.
func New(c *redis.ClusterClient, th Thresholds) *Service {
	return &Service{c: c, thresholds: th}
}

func tierKey(m keys.MemberID) string       { return "tier:" + string(m) }
func historyKey(m keys.MemberID) string    { return fmt.Sprintf("tier:{%s}:history", m) }
func taggedTierKey(m keys.MemberID) string { return fmt.Sprintf("tier:{%s}", m) }
func membersKey(t Tier) string             { return "tier:members:" + string(t) }
func activeKey(month string) string        { return "active:" + month }
func monthlyTierKey(month string, t Tier) string {
	return fmt.Sprintf("tiers:{%s}:%s", month, t)
}
func monthlyActiveKey(month string) string { return fmt.Sprintf("tiers:{%s}:active", month) }

func (s *Service) key(m keys.MemberID) string {
	if s.TaggedKeys {
		return taggedTierKey(m)
	}
	return tierKey(m)
}

// Promote records a new tier and appends it to the member's tier history.
func (s *Service) Promote(ctx context.Context, m keys.MemberID, t Tier, at time.Time) error {
	// case L23: crossslot
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, tierKey(m), string(t), 0)
		p.RPush(ctx, historyKey(m), fmt.Sprintf("%s@%d", t, at.Unix()))
		return nil
	})
	return err
}

// SetTier is Promote through the configured key layout.
func (s *Service) SetTier(ctx context.Context, m keys.MemberID, t Tier, at time.Time) error {
	// case L24: none
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.key(m), string(t), 0)
		p.RPush(ctx, historyKey(m), fmt.Sprintf("%s@%d", t, at.Unix()))
		return nil
	})
	return err
}

// Join adds a member to a tier's set and to this month's active set.
func (s *Service) Join(ctx context.Context, m keys.MemberID, t Tier, month string) error {
	if err := s.c.SAdd(ctx, membersKey(t), string(m)).Err(); err != nil {
		return err
	}
	if err := s.c.SAdd(ctx, activeKey(month), string(m)).Err(); err != nil {
		return err
	}
	if err := s.c.SAdd(ctx, monthlyTierKey(month, t), string(m)).Err(); err != nil {
		return err
	}
	return s.c.SAdd(ctx, monthlyActiveKey(month), string(m)).Err()
}

// ActiveInTier counts the members of a tier who were active in a month.
func (s *Service) ActiveInTier(ctx context.Context, t Tier, month string) (int64, error) {
	// case L25: crossslot
	return s.c.SInterCard(ctx, 0, membersKey(t), activeKey(month)).Result()
}

// ActiveInTierMonthly is ActiveInTier on the monthly snapshot sets.
func (s *Service) ActiveInTierMonthly(ctx context.Context, t Tier, month string) (int64, error) {
	// case L26: none
	return s.c.SInterCard(ctx, 0, monthlyTierKey(month, t), monthlyActiveKey(month)).Result()
}

// recompute reads the lifetime points and writes the tier, in one step.
var recompute = redis.NewScript(`
local pts = tonumber(redis.call('GET', KEYS[1]) or '0')
local tier = 'blue'
for i = 1, #ARGV, 2 do
  if pts >= tonumber(ARGV[i]) then tier = ARGV[i + 1] end
end
redis.call('SET', KEYS[2], tier)
return tier
`)

func (s *Service) thresholdArgs() []any {
	args := make([]any, 0, 2*len(s.thresholds))
	for _, th := range s.thresholds {
		args = append(args, th.Points, string(th.Tier))
	}
	return args
}

// Recompute sets a member's tier from their lifetime points in the ledger.
func (s *Service) Recompute(ctx context.Context, ledger keys.Keyspace, m keys.MemberID) (Tier, error) {
	// case L27: crossslot
	t, err := recompute.Run(ctx, s.c, []string{ledger.Lifetime(m), tierKey(m)}, s.thresholdArgs()...).Text()
	return Tier(t), err
}

// RecomputeTagged is Recompute with the tier key under the member's tag.
func (s *Service) RecomputeTagged(ctx context.Context, ledger keys.Keyspace, m keys.MemberID) (Tier, error) {
	// case L28: none
	t, err := recompute.Run(ctx, s.c, []string{ledger.Lifetime(m), taggedTierKey(m)}, s.thresholdArgs()...).Text()
	return Tier(t), err
}

// countTier writes the tier and bumps the per-tier population counter the
// dashboard reads.
var countTier = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1])
return redis.call('INCR', 'tier:count:' .. ARGV[1])
`)

// Assign sets a member's tier and counts it.
func (s *Service) Assign(ctx context.Context, m keys.MemberID, t Tier) (int64, error) {
	// case L29: undeclaredkey
	return countTier.Run(ctx, s.c, []string{taggedTierKey(m)}, string(t)).Int64()
}

// History returns a member's tier and history in one pipeline.
func (s *Service) History(ctx context.Context, m keys.MemberID) (Tier, []string, error) {
	// case L30: none
	var (
		cur  *redis.StringCmd
		hist *redis.StringSliceCmd
	)
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		cur = p.Get(ctx, tierKey(m))
		hist = p.LRange(ctx, historyKey(m), 0, -1)
		return nil
	})
	if err != nil && err != redis.Nil {
		return "", nil, err
	}
	return Tier(cur.Val()), hist.Val(), nil
}
