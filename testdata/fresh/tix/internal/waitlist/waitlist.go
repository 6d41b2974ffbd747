// Package waitlist queues fans for sold-out events and lets them in when
// seats come back. It runs on rueidis, which the queue team prefers for its
// pipelining.
package waitlist

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"example.com/tix/internal/keyspace"
)

// List is the waitlist store.
type List struct {
	c rueidis.Client
}

// New returns a waitlist store.
func New(c rueidis.Client) *List { return &List{c: c} }

// Keys of an event's waitlist, all under the event's tag.
func queueKey(ev keyspace.EventID) string    { return "wl:{" + ev.String() + "}" }
func notifiedKey(ev keyspace.EventID) string { return "wl:{" + ev.String() + "}:notified" }
func statsKey(ev keyspace.EventID) string    { return "wl:{" + ev.String() + "}:stats" }

// The fan's own index of waitlists, keyed by the fan.
func fanKey(u keyspace.UserID) string { return "wl:fan:" + string(u) }

// Legacy notified set, from before the cluster.
func legacyNotifiedKey(ev keyspace.EventID) string { return "wl:notified:" + ev.String() }

// Join queues a fan and records the waitlist in the fan's index.
func (l *List) Join(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) error {
	// case T50: none
	now := float64(time.Now().UnixMicro())
	for _, r := range l.c.DoMulti(ctx,
		l.c.B().Zadd().Key(queueKey(ev)).Nx().ScoreMember().ScoreMember(now, string(u)).Build(),
		l.c.B().Sadd().Key(fanKey(u)).Member(ev.String()).Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// JoinAtomic queues a fan and records it in the fan's index in one MULTI.
func (l *List) JoinAtomic(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) error {
	// case T51: crossslot
	now := float64(time.Now().UnixMicro())
	return l.c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Zadd().Key(queueKey(ev)).Nx().ScoreMember().ScoreMember(now, string(u)).Build(),
			d.B().Sadd().Key(fanKey(u)).Member(ev.String()).Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// JoinCounted queues a fan and bumps the event's join counter in one MULTI.
func (l *List) JoinCounted(ctx context.Context, ev keyspace.EventID, u keyspace.UserID) error {
	// case T52: none
	now := float64(time.Now().UnixMicro())
	return l.c.Dedicated(func(d rueidis.DedicatedClient) error {
		for _, r := range d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Zadd().Key(queueKey(ev)).Nx().ScoreMember().ScoreMember(now, string(u)).Build(),
			d.B().Hincrby().Key(statsKey(ev)).Field("joined").Increment(1).Build(),
			d.B().Exec().Build(),
		) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// promote pops the n first fans and marks them notified.
var promote = rueidis.NewLuaScript(`
local fans = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
local out = {}
for i = 1, #fans, 2 do
  redis.call('SADD', KEYS[2], fans[i])
  out[#out+1] = fans[i]
end
return out
`)

// Promote lets the next n fans in.
func (l *List) Promote(ctx context.Context, ev keyspace.EventID, n int) ([]string, error) {
	// case T53: none
	return promote.Exec(ctx, l.c, []string{queueKey(ev), notifiedKey(ev)}, []string{strconv.Itoa(n)}).AsStrSlice()
}

// PromoteLegacy lets the next n fans in and marks them in the legacy set the
// mailer still reads.
func (l *List) PromoteLegacy(ctx context.Context, ev keyspace.EventID, n int) ([]string, error) {
	// case T54: crossslot
	return promote.Exec(ctx, l.c, []string{queueKey(ev), legacyNotifiedKey(ev)}, []string{strconv.Itoa(n)}).AsStrSlice()
}

// Combine merges a cancelled show's waitlist into its replacement.
func (l *List) Combine(ctx context.Context, from, into keyspace.EventID) (int64, error) {
	// case T55: crossslot
	cmd := l.c.B().Zunionstore().Destination(queueKey(into)).Numkeys(2).Key(queueKey(into), queueKey(from)).AggregateMin().Build()
	return l.c.Do(ctx, cmd).AsInt64()
}

// CombineV2 merges waitlists by copying the members over, oldest first.
func (l *List) CombineV2(ctx context.Context, from, into keyspace.EventID) (int64, error) {
	// case T56: none
	fans, err := l.c.Do(ctx, l.c.B().Zrange().Key(queueKey(from)).Min("0").Max("-1").Withscores().Build()).AsZScores()
	if err != nil || len(fans) == 0 {
		return 0, err
	}
	add := l.c.B().Zadd().Key(queueKey(into)).Nx().ScoreMember()
	for _, f := range fans {
		add = add.ScoreMember(f.Score, f.Member)
	}
	return l.c.Do(ctx, add.Build()).AsInt64()
}

// Lengths returns the queue length of several events at once (the sold-out
// dashboard).
func (l *List) Lengths(ctx context.Context, evs ...keyspace.EventID) ([]int64, error) {
	// case T57: none
	cmds := make(rueidis.Commands, len(evs))
	for i, ev := range evs {
		cmds[i] = l.c.B().Zcard().Key(queueKey(ev)).Build()
	}
	out := make([]int64, len(evs))
	for i, r := range l.c.DoMulti(ctx, cmds...) {
		n, err := r.AsInt64()
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// Counters reads the "joined" counters of several events in one MGET.
func (l *List) Counters(ctx context.Context, evs ...keyspace.EventID) ([]string, error) {
	// case T58: crossslot
	keys := make([]string, len(evs))
	for i, ev := range evs {
		keys[i] = statsKey(ev) + ":joined"
	}
	return l.c.Do(ctx, l.c.B().Mget().Key(keys...).Build()).AsStrSlice()
}

// Status reads one event's queue and notified sizes.
func (l *List) Status(ctx context.Context, ev keyspace.EventID) (queued, notified int64, err error) {
	// case T59: none
	res := l.c.DoMulti(ctx,
		l.c.B().Zcard().Key(queueKey(ev)).Build(),
		l.c.B().Scard().Key(notifiedKey(ev)).Build(),
	)
	if queued, err = res[0].AsInt64(); err != nil {
		return
	}
	notified, err = res[1].AsInt64()
	return
}

// noteKey is a fan's note on one waitlist (seat preferences).
func noteKey(ev keyspace.EventID, u keyspace.UserID) string {
	return "wl:{" + ev.String() + "}:note:" + string(u)
}

// Forget drops a fan's index and their notes on the given waitlists (GDPR
// erasure).
func (l *List) Forget(ctx context.Context, u keyspace.UserID, evs ...keyspace.EventID) error {
	// case T60: crossslot
	keys := []string{fanKey(u)}
	for _, ev := range evs {
		keys = append(keys, noteKey(ev, u))
	}
	return l.c.Do(ctx, l.c.B().Del().Key(keys...).Build()).Error()
}

// ForgetV2 erases per slot: the fan's index on its own, and each event's
// note in its own DEL.
func (l *List) ForgetV2(ctx context.Context, u keyspace.UserID, evs ...keyspace.EventID) error {
	// case T61: none
	cmds := rueidis.Commands{l.c.B().Del().Key(fanKey(u)).Build()}
	for _, ev := range evs {
		cmds = append(cmds, l.c.B().Del().Key(noteKey(ev, u)).Build())
	}
	for _, r := range l.c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}
