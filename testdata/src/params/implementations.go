package params

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Interfaces with several implementations (see backends.go): a call is
// judged with each implementation that sends something, whatever the number
// of those that send nothing (in-memory ones, mocks, no-ops), up to eight
// that send something. Their multi-key commands, the commands they queue on
// a transaction the caller opens, and the one-node commands they forward
// are each judged as that implementation's.
type Purger interface {
	Purge(ctx context.Context, a, b string) error
}

type redisPurger struct{ rdb redis.UniversalClient }

func (p *redisPurger) Purge(ctx context.Context, a, b string) error { // want Purge:`sink Del\(p3, p4\)`
	return p.rdb.Del(ctx, a, b).Err()
}

type clusterPurger struct{ rdb *redis.ClusterClient }

func (p *clusterPurger) Purge(ctx context.Context, a, b string) error { // want Purge:`sink Unlink\(p3, p4\)`
	return p.rdb.Unlink(ctx, a, b).Err()
}

type memPurger struct{ m map[string]string }

func (p *memPurger) Purge(ctx context.Context, a, b string) error {
	delete(p.m, a)
	delete(p.m, b)
	return nil
}

type mockPurger struct{ calls [][2]string }

func (p *mockPurger) Purge(ctx context.Context, a, b string) error {
	p.calls = append(p.calls, [2]string{a, b})
	return nil
}

type noopPurger struct{}

func (noopPurger) Purge(ctx context.Context, a, b string) error { return nil }

type countingPurger struct{ n int }

func (p *countingPurger) Purge(ctx context.Context, a, b string) error { p.n++; return nil }

type Accounts struct{ purger Purger }

func (s *Accounts) Close(ctx context.Context, id, email string) error {
	return s.purger.Purge(ctx, "user:"+id, "email:"+email) // want `Unlink keys "user:<id>" and "email:<email>" are on different hash slots for all but about 1 in 16384 pairs of values of id and email \(assuming id and email hold no brace\) in clusterPurger.Purge`
}

func (s *Accounts) CloseTagged(ctx context.Context, id string) error { // want CloseTagged:`sink Unlink\("user:\{"\+p3\+"\}", "user:\{"\+p3\+"\}:email"\) at implementations.go:\d+; sink Del\("user:\{"\+p3\+"\}", "user:\{"\+p3\+"\}:email"\) at implementations.go:\d+$`
	return s.purger.Purge(ctx, "user:{"+id+"}", "user:{"+id+"}:email")
}

// A wrapper that forwards its keys through the interface is a wrapper of
// each implementation's command.
func (s *Accounts) forget(ctx context.Context, a, b string) error {
	return s.purger.Purge(ctx, a, b)
}

func (s *Accounts) Forget(ctx context.Context, id, email string) error {
	return s.forget(ctx, "user:"+id, "email:"+email) // want `Unlink keys "user:<id>" and "email:<email>" are on different hash slots.* in Accounts.forget`
}

// Near-miss: the one implementation that sends something puts both keys
// under one hash tag of its own, whatever its callers pass.
type Evictor interface {
	Evict(ctx context.Context, a, b string) error
}

type taggedEvictor struct{ rdb redis.UniversalClient }

func (e *taggedEvictor) Evict(ctx context.Context, a, b string) error { // want Evict:`sink Del\("\{evict\}:"\+p3, "\{evict\}:"\+p4\)`
	return e.rdb.Del(ctx, "{evict}:"+a, "{evict}:"+b).Err()
}

type memEvictor struct{ m map[string]string }

func (e *memEvictor) Evict(ctx context.Context, a, b string) error {
	delete(e.m, a)
	delete(e.m, b)
	return nil
}

func evictAccount(ctx context.Context, e Evictor, id, email string) error {
	return e.Evict(ctx, "user:"+id, "email:"+email)
}

// A transaction whose commands an implementation queues: each
// implementation's commands are judged together, never one's beside
// another's (one call, or calls on one receiver, run one of them).
type Ledger interface {
	Record(ctx context.Context, pipe redis.Pipeliner, account string)
}

type redisLedger struct{}

func (redisLedger) Record(ctx context.Context, pipe redis.Pipeliner, account string) { // want Record:`queues p3.Incr\("ledger:"\+p4\)`
	pipe.Incr(ctx, "ledger:"+account)
}

type auditLedger struct{}

func (auditLedger) Record(ctx context.Context, pipe redis.Pipeliner, account string) { // want Record:`queues p3.Incr\("audit:"\+p4\)`
	pipe.Incr(ctx, "audit:"+account)
}

type taggedLedger struct{}

func (taggedLedger) Record(ctx context.Context, pipe redis.Pipeliner, account string) { // want Record:`queues p3.Incr\("\{ledger\}:"\+p4\)`
	pipe.Incr(ctx, "{ledger}:"+account)
}

type memLedger struct{ m map[string]int }

func (l memLedger) Record(ctx context.Context, pipe redis.Pipeliner, account string) { l.m[account]++ }

func transfer(ctx context.Context, rdb redis.UniversalClient, l Ledger, from, to string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		l.Record(ctx, pipe, from)
		l.Record(ctx, pipe, to) // want `TxPipelined keys "audit:<from>" \(Incr\) and "audit:<to>" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
		return nil
	})
	pipe := rdb.TxPipeline()
	l.Record(ctx, pipe, from)
	l.Record(ctx, pipe, to) // want `TxPipeline keys "audit:<from>" \(Incr\) and "audit:<to>" \(Incr\) are on different hash slots`
	pipe.Exec(ctx)
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		recordBoth(ctx, pipe, l, from, to) // want `TxPipelined keys "audit:<from>" \(Incr\) and "audit:<to>" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
		return nil
	})
}

func recordBoth(ctx context.Context, pipe redis.Pipeliner, l Ledger, a, b string) {
	l.Record(ctx, pipe, a)
	l.Record(ctx, pipe, b)
}

// Near-misses: one call runs one implementation ("ledger:<account>" and
// "audit:<account>" are never queued together); an interface whose only
// implementation that queues tags its keys.
func credit(ctx context.Context, rdb redis.UniversalClient, l Ledger, j Journal, account, from, to string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		l.Record(ctx, pipe, account)
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		j.Note(ctx, pipe, from)
		j.Note(ctx, pipe, to)
		return nil
	})
}

type Journal interface {
	Note(ctx context.Context, pipe redis.Pipeliner, account string)
}

type taggedJournal struct{}

func (taggedJournal) Note(ctx context.Context, pipe redis.Pipeliner, account string) { // want Note:`queues p3.Incr\("\{journal\}:"\+p4\)`
	pipe.Incr(ctx, "{journal}:"+account)
}

type memJournal struct{ notes []string }

func (j *memJournal) Note(ctx context.Context, pipe redis.Pipeliner, account string) {
	j.notes = append(j.notes, account)
}

// A one-node command an implementation forwards is reported at the call
// that gives it its arguments, as that implementation's; one on a client
// of one server is not.
type Finder interface {
	Find(ctx context.Context, pattern string) []string
}

type redisFinder struct{ rdb redis.UniversalClient }

func (f *redisFinder) Find(ctx context.Context, pattern string) []string { // want Find:`forwards KEYS\(p3\) at implementations.go:\d+`
	return f.rdb.Keys(ctx, pattern).Val()
}

type memFinder struct{ keys []string }

func (f *memFinder) Find(ctx context.Context, pattern string) []string { return f.keys }

func sessions(ctx context.Context, f Finder, l Lister) {
	f.Find(ctx, "sess:*") // want `^redisFinder.Find sends KEYS \(implementations.go:\d+\) on a client that may be a cluster client, where it runs on one node and sees only the keys of that node's slots`
	l.List(ctx, "sess:*")
}

type Lister interface {
	List(ctx context.Context, pattern string) []string
}

type singleLister struct{ rdb *redis.Client }

func (l *singleLister) List(ctx context.Context, pattern string) []string {
	return l.rdb.Keys(ctx, pattern).Val()
}

type memLister struct{}

func (memLister) List(ctx context.Context, pattern string) []string { return nil }

// More than eight implementations that send something: a plugin point,
// not followed (see maxImplementations in reading/interfaces.go).
type Sweeper interface {
	Sweep(ctx context.Context, a, b string)
}

type sweeper0 struct{ rdb redis.UniversalClient }

func (w sweeper0) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper1 struct{ rdb redis.UniversalClient }

func (w sweeper1) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper2 struct{ rdb redis.UniversalClient }

func (w sweeper2) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper3 struct{ rdb redis.UniversalClient }

func (w sweeper3) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper4 struct{ rdb redis.UniversalClient }

func (w sweeper4) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper5 struct{ rdb redis.UniversalClient }

func (w sweeper5) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper6 struct{ rdb redis.UniversalClient }

func (w sweeper6) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper7 struct{ rdb redis.UniversalClient }

func (w sweeper7) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

type sweeper8 struct{ rdb redis.UniversalClient }

func (w sweeper8) Sweep(ctx context.Context, a, b string) { w.rdb.Del(ctx, a, b) } // want Sweep:`sink Del`

func sweep(ctx context.Context, w Sweeper, id, email string) {
	w.Sweep(ctx, "user:"+id, "email:"+email)
}
