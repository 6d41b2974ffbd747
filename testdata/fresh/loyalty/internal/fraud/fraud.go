// Package fraud places and releases holds on member accounts suspected of
// fraud (card sharing, points farming, stolen cards). The fraud team runs on
// Valkey GLIDE.
package fraud

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"example.com/loyalty/internal/keys"
)

// Client is the part of GLIDE's cluster client the fraud service uses.
type Client interface {
	Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error)
	MGet(ctx context.Context, keys []string) ([]models.Result[string], error)
	MSet(ctx context.Context, keyValueMap map[string]string) (string, error)
	MSetNX(ctx context.Context, keyValueMap map[string]string) (bool, error)
	SInter(ctx context.Context, keys []string) (map[string]struct{}, error)
	SInterCard(ctx context.Context, keys []string) (int64, error)
	Watch(ctx context.Context, keys []string) (string, error)
	InvokeScriptWithOptions(ctx context.Context, script options.Script, scriptOptions options.ScriptOptions) (any, error)
}

// Reason says why a hold was placed.
type Reason string

// Hold keys: everything about one member's hold is under the member's tag.
type holdKeys struct{ m keys.MemberID }

func hk(m keys.MemberID) holdKeys { return holdKeys{m} }

func (h holdKeys) hold() string     { return fmt.Sprintf("fraud:hold:{%s}", h.m) }
func (h holdKeys) reason() string   { return fmt.Sprintf("fraud:hold:{%s}:reason", h.m) }
func (h holdKeys) velocity() string { return fmt.Sprintf("fraud:velocity:{%s}", h.m) }
func (h holdKeys) devices() string  { return fmt.Sprintf("fraud:member:{%s}:devices", h.m) }
func (h holdKeys) previous() string { return fmt.Sprintf("fraud:member:{%s}:devices:prev", h.m) }
func (h holdKeys) reviewed() string { return fmt.Sprintf("fraud:reviewed:{%s}", h.m) }

const holdsIndex = "fraud:holds"

func deviceMembers(device string) string { return "fraud:device:{" + device + "}:members" }

// Service is the fraud hold service.
type Service struct {
	g Client
	// HoldTTL is how long a hold lasts unless an analyst extends it.
	HoldTTL time.Duration
}

// New returns a Service.
func New(g Client, holdTTL time.Duration) *Service { return &Service{g: g, HoldTTL: holdTTL} }

// Place puts a hold on a member and lists it in the analysts' queue.
func (s *Service) Place(ctx context.Context, m keys.MemberID, why Reason, at time.Time) error {
	// case L60: crossslot
	h := hk(m)
	b := pipeline.NewClusterBatch(true).
		Set(h.hold(), strconv.FormatInt(at.Unix(), 10)).
		Set(h.reason(), string(why)).
		ZAdd(holdsIndex, map[string]float64{string(m): float64(at.Unix())})
	_, err := s.g.Exec(ctx, *b, true)
	return err
}

// PlaceExpiring puts a hold that lapses after HoldTTL; the analysts' queue is
// fed from the hold stream instead of an index.
func (s *Service) PlaceExpiring(ctx context.Context, m keys.MemberID, why Reason, at time.Time) error {
	// case L61: none
	h := hk(m)
	b := pipeline.NewClusterBatch(true).
		Set(h.hold(), strconv.FormatInt(at.Unix(), 10)).
		Set(h.reason(), string(why)).
		Expire(h.hold(), s.HoldTTL).
		Expire(h.reason(), s.HoldTTL)
	_, err := s.g.Exec(ctx, *b, true)
	return err
}

// ReleaseAll lifts the holds of many members (an analyst's bulk action).
func (s *Service) ReleaseAll(ctx context.Context, ms ...keys.MemberID) error {
	// case L62: none
	b := pipeline.NewClusterBatch(false)
	for _, m := range ms {
		b.Del([]string{hk(m).hold(), hk(m).reason()})
	}
	_, err := s.g.Exec(ctx, *b, true)
	return err
}

// Held tells which members are on hold, for the redemption screen.
func (s *Service) Held(ctx context.Context, ms ...keys.MemberID) ([]bool, error) {
	// case L63: none
	ks := make([]string, len(ms))
	for i, m := range ms {
		ks[i] = hk(m).hold()
	}
	res, err := s.g.MGet(ctx, ks)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(res))
	for i, r := range res {
		out[i] = !r.IsNil()
	}
	return out, nil
}

// LinkDevice records that a member used a device, on both sides.
func (s *Service) LinkDevice(ctx context.Context, m keys.MemberID, device string) error {
	// case L64: crossslot
	b := pipeline.NewClusterBatch(true).
		SAdd(hk(m).devices(), []string{device}).
		SAdd(deviceMembers(device), []string{string(m)})
	_, err := s.g.Exec(ctx, *b, true)
	return err
}

// AddDevice records a device on the member's side only.
func (s *Service) AddDevice(ctx context.Context, m keys.MemberID, device string) error {
	b := pipeline.NewClusterBatch(false).SAdd(hk(m).devices(), []string{device})
	_, err := s.g.Exec(ctx, *b, true)
	return err
}

// SharedDevices returns the devices two members both used: card sharing.
func (s *Service) SharedDevices(ctx context.Context, a, b keys.MemberID) ([]string, error) {
	// case L65: crossslot
	set, err := s.g.SInter(ctx, []string{hk(a).devices(), hk(b).devices()})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	return out, nil
}

// KeptDevices counts the devices a member still uses since the last review.
func (s *Service) KeptDevices(ctx context.Context, m keys.MemberID) (int64, error) {
	// case L66: none
	return s.g.SInterCard(ctx, []string{hk(m).devices(), hk(m).previous()})
}

var velocity = options.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if n > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4])
  return 1
end
return 0
`)

// CheckVelocity counts an earn event and holds the member when they earn too
// often in the window.
func (s *Service) CheckVelocity(ctx context.Context, m keys.MemberID, window time.Duration, limit int, at time.Time) (bool, error) {
	// case L67: none
	h := hk(m)
	res, err := s.g.InvokeScriptWithOptions(ctx, *velocity, *options.NewScriptOptions().
		WithKeys([]string{h.velocity(), h.hold()}).
		WithArgs([]string{
			strconv.Itoa(int(window.Seconds())), strconv.Itoa(limit),
			strconv.FormatInt(at.Unix(), 10), strconv.Itoa(int(s.HoldTTL.Seconds())),
		}))
	if err != nil {
		return false, err
	}
	n, _ := res.(int64)
	return n == 1, nil
}

var escalate = options.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
return 1
`)

// Escalate lists an existing hold in the analysts' queue.
func (s *Service) Escalate(ctx context.Context, m keys.MemberID, at time.Time) (bool, error) {
	// case L68: crossslot
	res, err := s.g.InvokeScriptWithOptions(ctx, *escalate, *options.NewScriptOptions().
		WithKeys([]string{hk(m).hold(), holdsIndex}).
		WithArgs([]string{strconv.FormatInt(at.Unix(), 10), string(m)}))
	if err != nil {
		return false, err
	}
	n, _ := res.(int64)
	return n == 1, nil
}

// MergeCheck places a hold on two accounts being merged, provided neither
// changes meanwhile.
func (s *Service) MergeCheck(ctx context.Context, a, b keys.MemberID, at time.Time) error {
	// case L69: crossslot
	if _, err := s.g.Watch(ctx, []string{hk(a).hold(), hk(b).hold()}); err != nil {
		return err
	}
	batch := pipeline.NewClusterBatch(true).
		Set(hk(a).reason(), "merge").
		Set(hk(b).reason(), "merge")
	_, err := s.g.Exec(ctx, *batch, true)
	return err
}

// Freeze holds a ring of members at once, unless one of them is already held.
func (s *Service) Freeze(ctx context.Context, why Reason, ms ...keys.MemberID) (bool, error) {
	// case L70: crossslot
	kv := make(map[string]string, len(ms))
	for _, m := range ms {
		kv[hk(m).hold()] = string(why)
	}
	return s.g.MSetNX(ctx, kv)
}

// MarkReviewed stamps members as reviewed by an analyst.
func (s *Service) MarkReviewed(ctx context.Context, analyst string, ms ...keys.MemberID) error {
	// case L71: none
	kv := make(map[string]string, len(ms))
	for _, m := range ms {
		kv[hk(m).reviewed()] = analyst
	}
	_, err := s.g.MSet(ctx, kv)
	return err
}

// Purge deletes the given keys in one transaction (the analysts' admin tool
// sends key names it got from a search).
func (s *Service) Purge(ctx context.Context, ks ...string) error {
	// case L72: crossslot?
	b := pipeline.NewClusterBatch(true)
	for _, k := range ks {
		b.Del([]string{k})
	}
	_, err := s.g.Exec(ctx, *b, true)
	return err
}
