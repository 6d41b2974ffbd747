package params

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Calls away from the function's body see its parameters too: a goroutine,
// a deferred closure, a function run by a group, a method value.
func (s *Shop) Background(ctx context.Context, from, to string) { // want Background:`sink Rename`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.rdb.Rename(ctx, "acct:"+from, "acct:"+to) // want `Rename keys "acct:<from>" and "acct:<to>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
	}()
	wg.Wait()
	go s.rdb.Rename(ctx, "acct:{"+from+"}", "acct:{"+from+"}:old")
}

func (s *Shop) Later(ctx context.Context, from, to string) { // want Later:`sink Rename`
	defer func() {
		s.rdb.Rename(ctx, "acct:"+from, "acct:"+to) // want `Rename keys "acct:<from>" and "acct:<to>" are on different hash slots`
	}()
	defer s.rdb.Rename(ctx, "acct:{"+from+"}", "acct:{"+from+"}:old")
}

type group struct{ wg sync.WaitGroup }

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); _ = f() }()
}

func (s *Shop) Fanout(ctx context.Context, a, b string) {
	var g group
	g.Go(func() error { return s.rdb.Del(ctx, "tmp:"+a, "tmp:"+b).Err() }) // want `Del keys "tmp:<a>" and "tmp:<b>" are on different hash slots`
	g.Go(func() error { return s.rdb.Del(ctx, "tmp:{"+a+"}", "tmp:{"+a+"}:x").Err() })
}

func (s *Shop) Bound(ctx context.Context, a, b string) { // want Bound:`sink Unlink`
	unlink := s.rdb.Unlink
	unlink(ctx, "acct:"+a, "acct:"+b) // want `Unlink keys "acct:<a>" and "acct:<b>" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	unlink(ctx, "acct:{"+a+"}", "acct:{"+a+"}:old")
}

func BoundOnInterface(ctx context.Context, rdb redis.UniversalClient, a, b string) { // want BoundOnInterface:`sink Del`
	del := rdb.Del
	del(ctx, "acct:"+a, "acct:"+b) // want `Del keys "acct:<a>" and "acct:<b>" are on different hash slots`
	del(ctx, "acct:{"+a+"}", "acct:{"+a+"}:old")
}

// A worker pool fed keys through a channel: each key received is one of
// those sent.
func (s *Shop) Pool(ctx context.Context, ids []string) {
	ch := make(chan string)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for k := range ch {
			s.rdb.Del(ctx, k, "audit:"+k) // want `Del keys "item:<ids\[i\]>" and "audit:item:<ids\[i\]>" are on different hash slots for all but about 1 in 16384 values of ids\[i\]`
			s.rdb.Del(ctx, "{"+k+"}", "{"+k+"}:audit")
		}
	}()
	for _, id := range ids {
		ch <- "item:" + id
	}
	close(ch)
	<-done
}
