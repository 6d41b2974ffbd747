// Package guardscope pins what a type check on a client decides: the calls
// on the paths it dominates, in its own function, and nothing else of the
// type that holds the client.
package guardscope

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// A service whose client may be a cluster client or one server's: its
// caller decides.
type Service struct {
	rdb   redis.UniversalClient
	audit redis.UniversalClient
}

func New(rdb, audit redis.UniversalClient) *Service { return &Service{rdb: rdb, audit: audit} }

// reset clears each master on a cluster, and the one server otherwise: the
// failing branch's FLUSHDB runs on a client that is not a cluster's.
func (s *Service) reset(ctx context.Context) error {
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			return node.FlushDB(ctx).Err()
		})
	}
	return s.rdb.FlushDB(ctx).Err()
}

// The check in reset decides nothing of the calls of its siblings.

func (s *Service) Sessions(ctx context.Context) []string {
	return s.rdb.Keys(ctx, "sess:*").Val() // want `^KEYS on a cluster client runs on one node`
}

func (s *Service) Tune(ctx context.Context) error {
	return s.rdb.ConfigSet(ctx, "notify-keyspace-events", "Ex").Err() // want `^CONFIG SET notify-keyspace-events on a cluster client configures one node`
}

func (s *Service) Archive(ctx context.Context, id string) error {
	return s.rdb.Move(ctx, "order:"+id, 2).Err() // want `^MOVE needs a database other than 0`
}

func (s *Service) Pair(ctx context.Context) {
	s.rdb.MGet(ctx, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}

// Calling the guarded helper first guards nothing after it.
func (s *Service) Sweep(ctx context.Context) []string {
	if err := s.reset(ctx); err != nil {
		return nil
	}
	return s.rdb.Keys(ctx, "tmp:*").Val() // want `^KEYS on a cluster client runs on one node`
}

// A check that does not dominate the call decides nothing of it.
func (s *Service) Lenient(ctx context.Context, warn func()) []string {
	if _, ok := s.rdb.(*redis.ClusterClient); ok {
		warn()
	}
	return s.rdb.Keys(ctx, "job:*").Val() // want `^KEYS on a cluster client runs on one node`
}

// A check of another field, or of another value of the type, decides
// nothing of this client.
func (s *Service) OtherField(ctx context.Context) []string {
	if _, ok := s.audit.(*redis.ClusterClient); ok {
		return nil
	}
	return s.rdb.Keys(ctx, "audit:*").Val() // want `^KEYS on a cluster client runs on one node`
}

func (s *Service) OtherValue(ctx context.Context, o *Service) []string {
	if _, ok := o.rdb.(*redis.ClusterClient); ok {
		return nil
	}
	return s.rdb.Keys(ctx, "peer:*").Val() // want `^KEYS on a cluster client runs on one node`
}

// Guarded: a refusal, and the failing branch of an if.
func (s *Service) Drop(ctx context.Context) error {
	if _, ok := s.rdb.(*redis.ClusterClient); ok {
		return errors.New("drop: not on a cluster")
	}
	s.rdb.Move(ctx, "order:1", 2)
	return s.rdb.Rename(ctx, "a:1", "b:2").Err()
}

// A type switch decides its cases alone.
type Switched struct{ rdb redis.UniversalClient }

func NewSwitched(rdb redis.UniversalClient) *Switched { return &Switched{rdb: rdb} }

func (s *Switched) Keys(ctx context.Context) []string {
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		var out []string
		c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			out = append(out, node.Keys(ctx, "sess:*").Val()...)
			return nil
		})
		s.rdb.MGet(ctx, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
		return out
	case *redis.Client:
		return s.rdb.Keys(ctx, "sess:*").Val()
	default:
		return s.rdb.Keys(ctx, "sess:*").Val()
	}
}

func (s *Switched) Count(ctx context.Context) int {
	return len(s.rdb.Keys(ctx, "sess:*").Val()) // want `^KEYS on a cluster client runs on one node`
}

func (s *Switched) Flush(ctx context.Context) error {
	return s.rdb.FlushDB(ctx).Err() // want `^FLUSHDB on a cluster client runs on one node`
}

// A constructor that checks the client and stores it on both branches: the
// field holds a cluster client or not, and its methods are judged as such.
type Built struct {
	rdb     redis.UniversalClient
	cluster bool
}

func NewBuilt(rdb redis.UniversalClient) *Built {
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		return &Built{rdb: cc, cluster: true}
	}
	return &Built{rdb: rdb}
}

func (b *Built) Sessions(ctx context.Context) []string {
	return b.rdb.Keys(ctx, "sess:*").Val() // want `^KEYS on a cluster client runs on one node`
}

// One that refuses a cluster client: the field only ever holds another.
type Refusing struct{ rdb redis.UniversalClient }

func NewRefusing(rdb redis.UniversalClient) (*Refusing, error) {
	if _, ok := rdb.(*redis.ClusterClient); ok {
		return nil, errors.New("refusing: not on a cluster")
	}
	return &Refusing{rdb: rdb}, nil
}

func (r *Refusing) Sessions(ctx context.Context) []string {
	return r.rdb.Keys(ctx, "sess:*").Val()
}
