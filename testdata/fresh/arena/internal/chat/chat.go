// Package chat handles chat rooms, direct messages and player presence.
package chat

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"example.com/arena/internal/ids"
)

// HistoryLen is how many messages a room keeps.
const HistoryLen = 500

// Service is the chat service.
type Service struct {
	client  *glide.ClusterClient
	regions []string
}

// NewService returns a chat Service.
func NewService(client *glide.ClusterClient, regions []string) *Service {
	return &Service{client: client, regions: regions}
}

type roomKeys ids.RoomID

func (r roomKeys) base() string     { return "chat:{" + string(r) + "}" }
func (r roomKeys) history() string  { return r.base() + ":history" }
func (r roomKeys) members() string  { return r.base() + ":members" }
func (r roomKeys) present() string  { return r.base() + ":present" }
func (r roomKeys) online() string   { return r.base() + ":online" }
func (r roomKeys) unread() string   { return r.base() + ":unread" }
func (r roomKeys) lastRead() string { return r.base() + ":lastread" }
func (r roomKeys) archive() string  { return r.base() + ":archive" }
func (r roomKeys) pins() string     { return "chat:pins:" + string(r) }

func unreadOf(p ids.PlayerID) string      { return "chat:unread:" + p.String() }
func presenceOf(p ids.PlayerID) string    { return "presence:" + p.String() }
func friendsOf(p ids.PlayerID) string     { return "friends:" + p.String() }
func onlineIn(region string) string       { return "presence:online:" + region }
func trending(region string) string       { return "chat:trending:" + region }
func trendingTagged(region string) string { return "chat:{trending}:" + region }

// SetPresence updates the status of many players at once (the gateway
// flushes its buffer every second).
func (s *Service) SetPresence(ctx context.Context, status map[ids.PlayerID]string) error {
	// case G75: none
	kv := make(map[string]string, len(status))
	for p, st := range status {
		kv[presenceOf(p)] = st
	}
	_, err := s.client.MSet(ctx, kv)
	return err
}

// Presence reads the status of a friend list.
func (s *Service) Presence(ctx context.Context, friends []ids.PlayerID) (map[ids.PlayerID]string, error) {
	// case G76: none
	keys := make([]string, len(friends))
	for i, f := range friends {
		keys[i] = presenceOf(f)
	}
	vals, err := s.client.MGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[ids.PlayerID]string, len(friends))
	for i, v := range vals {
		if !v.IsNil() {
			out[friends[i]] = v.Value()
		}
	}
	return out, nil
}

func stamp(from ids.PlayerID, text string) string {
	return strconv.FormatInt(time.Now().UnixMilli(), 10) + "|" + from.String() + "|" + text
}

// Whisper posts a direct message in a room and bumps the recipient's unread
// counter, atomically.
func (s *Service) Whisper(ctx context.Context, room ids.RoomID, from, to ids.PlayerID, text string) error {
	// case G77: crossslot
	r := roomKeys(room)
	batch := pipeline.NewClusterBatch(true).
		RPush(r.history(), []string{stamp(from, text)}).
		LTrim(r.history(), -HistoryLen, -1).
		HIncrBy(unreadOf(to), string(room), 1)
	_, err := s.client.Exec(ctx, *batch, true)
	return err
}

// Post posts a message in a room and bumps the room's unread counters,
// atomically.
func (s *Service) Post(ctx context.Context, room ids.RoomID, from ids.PlayerID, text string) error {
	// case G78: none
	r := roomKeys(room)
	batch := pipeline.NewClusterBatch(true).
		RPush(r.history(), []string{stamp(from, text)}).
		LTrim(r.history(), -HistoryLen, -1).
		HIncrBy(r.unread(), "total", 1)
	_, err := s.client.Exec(ctx, *batch, true)
	return err
}

// Broadcast posts a system message in several rooms and marks it unread
// for a player, in one non-atomic batch.
func (s *Service) Broadcast(ctx context.Context, rooms []ids.RoomID, p ids.PlayerID, text string) error {
	// case G79: none
	batch := pipeline.NewClusterBatch(false)
	for _, room := range rooms {
		batch.RPush(roomKeys(room).history(), []string{stamp("system", text)})
		batch.HIncrBy(unreadOf(p), string(room), 1)
	}
	_, err := s.client.Exec(ctx, *batch, true)
	return err
}

// OnlineFriends stores and returns a player's friends online in a region.
func (s *Service) OnlineFriends(ctx context.Context, p ids.PlayerID, region string) (int64, error) {
	// case G80: crossslot
	return s.client.SInterStore(ctx, "presence:friends-online:"+p.String(), []string{friendsOf(p), onlineIn(region)})
}

// OnlineMembers stores and returns the room members currently present.
func (s *Service) OnlineMembers(ctx context.Context, room ids.RoomID) (int64, error) {
	// case G81: none
	r := roomKeys(room)
	return s.client.SInterStore(ctx, r.online(), []string{r.members(), r.present()})
}

// ArchiveLegacy moves a room's history under the archive prefix.
func (s *Service) ArchiveLegacy(ctx context.Context, room ids.RoomID) error {
	// case G82: crossslot
	_, err := s.client.Rename(ctx, roomKeys(room).history(), "chat:archive:"+string(room))
	return err
}

// Archive moves a room's history to the room's archive key.
func (s *Service) Archive(ctx context.Context, room ids.RoomID) error {
	// case G83: none
	r := roomKeys(room)
	_, err := s.client.Rename(ctx, r.history(), r.archive())
	return err
}

var markRead = options.NewScript(`
local n = redis.call('HGET', KEYS[1], ARGV[1]) or '0'
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return tonumber(n)
`)

// MarkRead clears a player's unread count for a room and records the
// player's read position in the room.
func (s *Service) MarkRead(ctx context.Context, room ids.RoomID, p ids.PlayerID, pos int64) (int64, error) {
	// case G84: crossslot
	opts := options.NewScriptOptions().
		WithKeys([]string{unreadOf(p), roomKeys(room).lastRead()}).
		WithArgs([]string{string(room), p.String(), strconv.FormatInt(pos, 10)})
	res, err := s.client.InvokeScriptWithOptions(ctx, *markRead, *opts)
	if err != nil {
		return 0, err
	}
	n, _ := res.(int64)
	return n, nil
}

// MarkRoomRead clears the room's unread count for a player and records the
// player's read position.
func (s *Service) MarkRoomRead(ctx context.Context, room ids.RoomID, p ids.PlayerID, pos int64) (int64, error) {
	// case G85: none
	r := roomKeys(room)
	opts := options.NewScriptOptions().
		WithKeys([]string{r.unread(), r.lastRead()}).
		WithArgs([]string{p.String(), p.String(), strconv.FormatInt(pos, 10)})
	res, err := s.client.InvokeScriptWithOptions(ctx, *markRead, *opts)
	if err != nil {
		return 0, err
	}
	n, _ := res.(int64)
	return n, nil
}

// DeleteRoom drops a room's keys, pins included.
func (s *Service) DeleteRoom(ctx context.Context, room ids.RoomID) (int64, error) {
	// case G86: none
	r := roomKeys(room)
	return s.client.Del(ctx, []string{r.history(), r.members(), r.unread(), r.pins()})
}

func (s *Service) zunionstore(ctx context.Context, dst string, srcs []string) (int64, error) {
	args := append([]string{"ZUNIONSTORE", dst, strconv.Itoa(len(srcs))}, srcs...)
	v, err := s.client.CustomCommand(ctx, args)
	if err != nil {
		return 0, err
	}
	n, ok := v.SingleValue().(int64)
	if !ok {
		return 0, fmt.Errorf("zunionstore: unexpected reply %v", v.SingleValue())
	}
	return n, nil
}

// RefreshTrending rebuilds the global trending rooms from the regions'.
func (s *Service) RefreshTrending(ctx context.Context) (int64, error) {
	// case G87: crossslot
	srcs := slices.Collect(func(yield func(string) bool) {
		for _, r := range s.regions {
			if !yield(trending(r)) {
				return
			}
		}
	})
	return s.zunionstore(ctx, trending("global"), srcs)
}

// RefreshTrendingTagged is RefreshTrending on the tagged trending keys.
func (s *Service) RefreshTrendingTagged(ctx context.Context) (int64, error) {
	// case G88: none
	byRegion := make(map[string]string, len(s.regions))
	for _, r := range s.regions {
		byRegion[r] = trendingTagged(r)
	}
	srcs := slices.Sorted(maps.Values(byRegion))
	return s.zunionstore(ctx, trendingTagged("global"), srcs)
}
