package guardscope

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A client the package only ever makes for one server: its calls are left
// out, except where a type check ruled a cluster client in. There the code
// says it runs on a cluster, and is judged as a cluster client's.
type Local struct{ rdb redis.UniversalClient }

func NewLocal(addr string) *Local {
	return &Local{rdb: redis.NewClient(&redis.Options{Addr: addr})}
}

func (l *Local) Both(ctx context.Context) {
	if _, ok := l.rdb.(*redis.ClusterClient); ok {
		l.rdb.MGet(ctx, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
		l.rdb.Keys(ctx, "sess:*")     // want `^KEYS on a cluster client runs on one node`
	}
	l.rdb.MGet(ctx, "a:1", "b:2")
	l.rdb.Keys(ctx, "sess:*")
}

func (l *Local) Sibling(ctx context.Context) {
	l.rdb.MGet(ctx, "a:1", "b:2")
	l.rdb.Keys(ctx, "sess:*")
}

// The case of a type switch, likewise.
func (l *Local) Switch(ctx context.Context) {
	switch l.rdb.(type) {
	case *redis.ClusterClient:
		l.rdb.Move(ctx, "a:1", 2) // want `^MOVE needs a database other than 0`
	case *redis.Client:
		l.rdb.Move(ctx, "a:1", 2)
	}
}
