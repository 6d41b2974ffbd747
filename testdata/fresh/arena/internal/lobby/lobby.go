// Package lobby manages pre-game lobbies and the parties players form
// before queueing.
package lobby

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/arena/internal/ids"
)

// Service is the lobby service. rdb is whatever main gives it: a single
// server in development, the cluster in production.
type Service struct {
	rdb  redis.UniversalClient
	keys Keys
	ttl  time.Duration
}

// Options configures a Service.
type Options struct {
	Prefix string
	TTL    time.Duration
}

// NewService builds a lobby Service.
func NewService(rdb redis.UniversalClient, opt Options) *Service {
	if opt.TTL == 0 {
		opt.TTL = 2 * time.Hour
	}
	return &Service{rdb: rdb, keys: Keys{Prefix: opt.Prefix}, ttl: opt.TTL}
}

// Open creates a lobby hosted by host.
func (s *Service) Open(ctx context.Context, id ids.LobbyID, host ids.PlayerID, mode, mapName string) error {
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, s.keys.lobbyHost(id), host.String(), s.ttl)
		pipe.Set(ctx, s.keys.lobbyMode(id), mode, s.ttl)
		pipe.Set(ctx, s.keys.lobbyMapName(id), mapName, s.ttl)
		pipe.SAdd(ctx, s.keys.lobbyMembers(id), host.String())
		pipe.HSet(ctx, s.keys.lobbySettings(id), "count", 1)
		return nil
	})
	return err
}

// Join adds a player to a lobby and remembers which lobby the player is in.
func (s *Service) Join(ctx context.Context, id ids.LobbyID, p ids.PlayerID) error {
	// case G16: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SAdd(ctx, s.keys.lobbyMembers(id), p.String())
		pipe.HIncrBy(ctx, s.keys.lobbySettings(id), "count", 1)
		pipe.Set(ctx, s.keys.playerLobby(p), id.String(), s.ttl)
		return nil
	})
	return err
}

// JoinV2 keeps the lobby's own keys transactional and sets the player's
// pointer afterwards; a stale pointer is repaired on the next read.
func (s *Service) JoinV2(ctx context.Context, id ids.LobbyID, p ids.PlayerID) error {
	// case G17: none
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SAdd(ctx, s.keys.lobbyMembers(id), p.String())
		pipe.HIncrBy(ctx, s.keys.lobbySettings(id), "count", 1)
		return nil
	})
	if err != nil {
		return err
	}
	return s.rdb.Set(ctx, s.keys.playerLobby(p), id.String(), s.ttl).Err()
}

// MergeParties folds party from into party into.
func (s *Service) MergeParties(ctx context.Context, into, from ids.PartyID) (int64, error) {
	// case G18: crossslot
	dst := s.keys.partyMembers(into)
	return s.rdb.SUnionStore(ctx, dst, dst, s.keys.partyMembers(from)).Result()
}

// AcceptInvites moves every accepted invite of a party into its members.
func (s *Service) AcceptInvites(ctx context.Context, party ids.PartyID) (int64, error) {
	// case G19: none
	dst := s.keys.partyMembers(party)
	return s.rdb.SUnionStore(ctx, dst, dst, s.keys.partyInvites(party)).Result()
}

// SwitchParty moves a player from one party to another atomically.
func (s *Service) SwitchParty(ctx context.Context, p ids.PlayerID, from, to ids.PartyID) (bool, error) {
	// case G20: crossslot
	return s.rdb.SMove(ctx, s.keys.partyMembers(from), s.keys.partyMembers(to), p.String()).Result()
}

// SwitchPartyLoose moves a player in two steps, one round trip.
func (s *Service) SwitchPartyLoose(ctx context.Context, p ids.PlayerID, from, to ids.PartyID) error {
	// case G21: none
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SRem(ctx, s.keys.partyMembers(from), p.String())
		pipe.SAdd(ctx, s.keys.partyMembers(to), p.String())
		return nil
	})
	return err
}

// Snapshot is what the lobby screen shows.
type Snapshot struct {
	Host, Mode, Map string
}

func snapshotOf(vals []any) Snapshot {
	str := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		return ""
	}
	return Snapshot{Host: str(vals[0]), Mode: str(vals[1]), Map: str(vals[2])}
}

// Snapshot reads the lobby header in one call.
func (s *Service) Snapshot(ctx context.Context, id ids.LobbyID) (Snapshot, error) {
	// case G22: unclosedtag
	vals, err := s.rdb.MGet(ctx, s.keys.lobbyHost(id), s.keys.lobbyMode(id), s.keys.lobbyMap(id)).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(vals), nil
}

// SnapshotV2 is Snapshot with the map name's key fixed.
func (s *Service) SnapshotV2(ctx context.Context, id ids.LobbyID) (Snapshot, error) {
	// case G23: none
	vals, err := s.rdb.MGet(ctx, s.keys.lobbyHost(id), s.keys.lobbyMode(id), s.keys.lobbyMapName(id)).Result()
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(vals), nil
}

// Disband removes the lobby and frees its host.
func (s *Service) Disband(ctx context.Context, id ids.LobbyID, host ids.PlayerID) error {
	// case G24: crossslot
	keys := []string{s.keys.lobbyMembers(id), s.keys.lobbySettings(id), s.keys.lobbyHost(id), s.keys.playerLobby(host)}
	return s.rdb.Del(ctx, keys...).Err()
}

// Close removes the lobby's own keys.
func (s *Service) Close(ctx context.Context, id ids.LobbyID) error {
	// case G25: none
	keys := []string{s.keys.lobbyMembers(id), s.keys.lobbySettings(id), s.keys.lobbyHost(id), s.keys.lobbyMode(id)}
	return s.rdb.Del(ctx, keys...).Err()
}

// Follow subscribes a party that sits in a lobby to both the lobby's events
// and the party's own events.
func (s *Service) Follow(ctx context.Context, id ids.LobbyID, party ids.PartyID) (*redis.PubSub, error) {
	// case G26: shardedpubsub
	ps := s.rdb.SSubscribe(ctx, s.keys.lobbyEvents(id), s.keys.partyEvents(party))
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, fmt.Errorf("follow lobby: %w", err)
	}
	return ps, nil
}

// Attach subscribes a lobby member to the lobby's events and chat.
func (s *Service) Attach(ctx context.Context, id ids.LobbyID) (*redis.PubSub, error) {
	// case G27: none
	ps := s.rdb.SSubscribe(ctx, s.keys.lobbyEvents(id), s.keys.lobbyChat(id))
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, fmt.Errorf("attach lobby: %w", err)
	}
	return ps, nil
}
