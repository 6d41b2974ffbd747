// Package chat carries messages between a rider and a driver during a trip.
package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fleet/internal/keys"
)

// Conversation identifies the chat of one trip.
type Conversation struct {
	Trip   keys.TripID
	Rider  keys.RiderID
	Driver keys.DriverID
}

// Service is the chat service.
type Service struct {
	rdb redis.UniversalClient
}

// New returns a chat Service.
func New(rdb redis.UniversalClient) *Service { return &Service{rdb: rdb} }

func msgsKey(t keys.TripID) string { return "chat:" + t.String() + ":msgs" }

func convKey(t keys.TripID, part string) string { return "chat:{" + t.String() + "}:" + part }

// Send appends a message and bumps the recipient's unread counter.
func (s *Service) Send(ctx context.Context, c Conversation, to, body string) error {
	// case F72: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: msgsKey(c.Trip), MaxLen: 500, Approx: true, Values: []any{"to", to, "body", body}})
		p.HIncrBy(ctx, "chat:unread:"+to, c.Trip.String(), 1)
		return nil
	})
	return err
}

// SendV2 appends a message and bumps the recipient's unread counter.
func (s *Service) SendV2(ctx context.Context, c Conversation, to, body string) error {
	// case F73: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: convKey(c.Trip, "msgs"), MaxLen: 500, Approx: true, Values: []any{"to", to, "body", body}})
		p.HIncrBy(ctx, convKey(c.Trip, "unread"), to, 1)
		return nil
	})
	return err
}

func listen(ctx context.Context, ps *redis.PubSub, n int) error {
	for range n {
		msg, err := ps.ReceiveTimeout(ctx, 2*time.Second)
		if err != nil {
			return err
		}
		if _, ok := msg.(*redis.Subscription); !ok {
			return fmt.Errorf("chat: unexpected %T before subscription", msg)
		}
	}
	return nil
}

// Listen subscribes to typing indicators and events of a conversation and
// returns once the subscription is confirmed.
func (s *Service) Listen(ctx context.Context, c Conversation) (*redis.PubSub, error) {
	// case F74: shardedpubsub
	typing := fmt.Sprintf("chat:%d:typing", c.Trip)
	events := fmt.Sprintf("chat:%d:events", c.Trip)
	ps := s.rdb.SSubscribe(ctx, typing, events)
	if err := listen(ctx, ps, 2); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// ListenV2 subscribes to typing indicators and events of a conversation.
func (s *Service) ListenV2(ctx context.Context, c Conversation) (*redis.PubSub, error) {
	// case F75: none
	ps := s.rdb.SSubscribe(ctx, convKey(c.Trip, "typing"), convKey(c.Trip, "events"))
	if err := listen(ctx, ps, 2); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// MarkRead clears both participants' unread counters of a trip.
func (s *Service) MarkRead(ctx context.Context, c Conversation) error {
	// case F76: crossslot
	return s.rdb.Del(ctx,
		fmt.Sprintf("unread:%s:%d", c.Rider, c.Trip),
		fmt.Sprintf("unread:%s:%d", c.Driver, c.Trip),
	).Err()
}

// MarkReadV2 clears both participants' unread counters of a trip.
func (s *Service) MarkReadV2(ctx context.Context, c Conversation) error {
	// case F77: none
	return s.rdb.HDel(ctx, convKey(c.Trip, "unread"), string(c.Rider), string(c.Driver)).Err()
}

func presenceKey(t keys.TripID, who string) string {
	return "presence:{}:" + t.String() + ":" + who
}

// Presence tells whether rider and driver have the chat open.
func (s *Service) Presence(ctx context.Context, c Conversation) (rider, driver bool, err error) {
	// case F78: emptytag, crossslot
	vals, err := s.rdb.MGet(ctx, presenceKey(c.Trip, "rider"), presenceKey(c.Trip, "driver")).Result()
	if err != nil {
		return false, false, err
	}
	return vals[0] != nil, vals[1] != nil, nil
}

// PresenceV2 tells whether rider and driver have the chat open.
func (s *Service) PresenceV2(ctx context.Context, c Conversation) (rider, driver bool, err error) {
	// case F79: none
	vals, err := s.rdb.MGet(ctx, convKey(c.Trip, "presence:rider"), convKey(c.Trip, "presence:driver")).Result()
	if err != nil {
		return false, false, err
	}
	return vals[0] != nil, vals[1] != nil, nil
}
