package guardscope

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

// rueidis and valkey-go tell their clients apart by Mode(): the same
// scope as a type check.
type Index struct{ rdb rueidis.Client }

func NewIndex(rdb rueidis.Client) *Index { return &Index{rdb: rdb} }

func (x *Index) scan(ctx context.Context) {
	if x.rdb.Mode() == rueidis.ClientModeCluster {
		for _, node := range x.rdb.Nodes() {
			node.Do(ctx, node.B().Keys().Pattern("idx:*").Build())
		}
		return
	}
	x.rdb.Do(ctx, x.rdb.B().Keys().Pattern("idx:*").Build())
}

func (x *Index) Scan(ctx context.Context) {
	x.rdb.Do(ctx, x.rdb.B().Keys().Pattern("idx:*").Build()) // want `^KEYS on a cluster client runs on one node`
}

func (x *Index) notOnCluster(ctx context.Context) {
	if x.rdb.Mode() != rueidis.ClientModeCluster {
		x.rdb.Do(ctx, x.rdb.B().Mget().Key("a:1", "b:2").Build())
	}
	if x.rdb.Mode() == rueidis.ClientModeStandalone {
		x.rdb.Do(ctx, x.rdb.B().Mget().Key("a:1", "b:2").Build())
	}
	// Not standalone: a cluster, or a sentinel's master.
	if x.rdb.Mode() != rueidis.ClientModeStandalone {
		x.rdb.Do(ctx, x.rdb.B().Mget().Key("a:1", "b:2").Build()) // want `MGET keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
	}
}

// A client forced to one node, judged as a cluster's where Mode() said so.
type LocalIndex struct{ rdb rueidis.Client }

func NewLocalIndex(addr string) *LocalIndex {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true})
	return &LocalIndex{rdb: c}
}

func (x *LocalIndex) Both(ctx context.Context) {
	if x.rdb.Mode() == rueidis.ClientModeCluster {
		x.rdb.Do(ctx, x.rdb.B().Mget().Key("a:1", "b:2").Build()) // want `MGET keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
	}
	x.rdb.Do(ctx, x.rdb.B().Mget().Key("a:1", "b:2").Build())
}

// valkey-go, the same.
type Shelf struct{ c valkey.Client }

func NewShelf(c valkey.Client) *Shelf { return &Shelf{c: c} }

func (s *Shelf) pair(ctx context.Context) {
	if s.c.Mode() != valkey.ClientModeCluster {
		s.c.Do(ctx, s.c.B().Mget().Key("a:1", "b:2").Build())
	}
}

func (s *Shelf) Pair(ctx context.Context) {
	s.c.Do(ctx, s.c.B().Mget().Key("a:1", "b:2").Build()) // want `MGET keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}
