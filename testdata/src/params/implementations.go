package params

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Interfaces with several implementations (see backends.go): a call is
// judged with each implementation that sends something, whatever the number
// of those that send nothing (in-memory ones, mocks, no-ops), up to eight
// that send something.
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
	return s.purger.Purge(ctx, "user:"+id, "email:"+email) // want `Del keys "user:<id>" and "email:<email>" are on different hash slots for all but about 1 in 16384 pairs of values of id and email \(assuming id and email hold no brace\) in redisPurger.Purge` `Unlink keys "user:<id>" and "email:<email>" are on different hash slots for all but about 1 in 16384 pairs of values of id and email \(assuming id and email hold no brace\) in clusterPurger.Purge`
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
	return s.forget(ctx, "user:"+id, "email:"+email) // want `Del keys "user:<id>" and "email:<email>" are on different hash slots.* in Accounts.forget \(implementations.go:\d+\)` `Unlink keys "user:<id>" and "email:<email>" are on different hash slots.* in Accounts.forget`
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
