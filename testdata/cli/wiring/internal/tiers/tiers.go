// Package tiers switches its key layout on an exported field that main
// sets: the finding that holds at the field's default is judged where main
// is, and main turns the tagged layout on.
package tiers

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Service owns the tier keys.
type Service struct {
	c *redis.ClusterClient
	// TaggedKeys puts a member's keys under the member's tag.
	TaggedKeys bool
}

// New returns a Service.
func New(c *redis.ClusterClient) *Service { return &Service{c: c} }

func (s *Service) key(m string) string {
	if s.TaggedKeys {
		return "tier:{" + m + "}"
	}
	return "tier:" + m
}

// SetTier records a tier and its history in one transaction.
func (s *Service) SetTier(ctx context.Context, m, t string) error {
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.key(m), t, 0)
		p.RPush(ctx, "tier:{"+m+"}:history", t)
		return nil
	})
	return err
}
