package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A batch built in a loop and handed to a wrapper that sends it in one
// command: the wrapper's command is judged with the caller's family.
type batchCli interface {
	DelAll(keys []string) error // want DelAll:`sink Del\(p2...\) at wrapped.go:20`
	Members(key string) ([]string, error)
}

type clusterBatch struct{ inner *goredis.ClusterClient }

func (w *clusterBatch) DelAll(keys []string) error { // want DelAll:`sink Del\(p2...\) at wrapped.go:20`
	return w.inner.Del(context.Background(), keys...).Err()
}

func (w *clusterBatch) Members(key string) ([]string, error) { return nil, nil }

type rueidisBatch struct{ rc rueidis.Client }

func (w rueidisBatch) getAll(ctx context.Context, keys []string) error {
	return w.rc.Do(ctx, w.rc.B().Mget().Key(keys...).Build()).Error()
}

// perKey sends one GET a key: nothing to judge.
func (w rueidisBatch) perKey(ctx context.Context, keys []string) {
	for _, k := range keys {
		w.rc.Do(ctx, w.rc.B().Get().Key(k).Build())
	}
}

type garbage struct {
	cli  batchCli
	rb   rueidisBatch
	name string
}

func (g *garbage) collect(ctx context.Context, user string) {
	ids, _ := g.cli.Members("garbage")
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, "msg:"+id)
	}
	g.cli.DelAll(keys)     // want `Del keys "msg:<ids\[i\]>" for two different elements of ids are on different hash slots .* in clusterBatch.DelAll \(wrapped.go:20\)`
	g.rb.getAll(ctx, keys) // want `MGET keys "msg:<ids\[i\]>" for two different elements of ids are on different hash slots .* in rueidisBatch.getAll`
	g.rb.perKey(ctx, keys)

	tagged := make([]string, 0, len(ids))
	for _, id := range ids {
		tagged = append(tagged, "msg:{"+user+"}:"+id)
	}
	g.cli.DelAll(tagged) // one tag
	g.rb.getAll(ctx, tagged)
	g.cli.DelAll([]string{"msg:{a}:1", "msg:{a}:2"})
}
