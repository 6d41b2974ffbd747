package values

import (
	"context"
	"iter"
	"maps"
	"slices"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A range over a function is a loop: the keys it appends, one per value
// the iterator yields, are a family over those values.

func rangeOverSeq(ctx context.Context, rdb *goredis.ClusterClient, seq iter.Seq[string], tenant string) {
	var ks []string
	for id := range seq {
		ks = append(ks, "sku:"+id)
	}
	rdb.MGet(ctx, ks...) // want `MGet keys "sku:<id>" for two different values of seq are on different hash slots for all but about 1 in 16384 pairs of them \(assuming id holds no brace\); group the keys by slot`

	var tagged []string
	for id := range seq {
		tagged = append(tagged, "sku:{"+tenant+"}:"+id)
	}
	rdb.MGet(ctx, tagged...) // one tenant's tag
}

func rangeOverMapKeys(ctx context.Context, rdb *goredis.ClusterClient, stock map[string]int) {
	ks := make([]string, 0, len(stock))
	for sku := range maps.Keys(stock) {
		ks = append(ks, "stock:"+sku)
	}
	rdb.Del(ctx, ks...) // want `Del keys "stock:<sku>" for two different values of maps.Keys\(stock\) are on different hash slots`
}

func rangeOverSeq2(ctx context.Context, rdb *goredis.ClusterClient, ids []string) {
	var ks []string
	for _, id := range slices.All(ids) {
		ks = append(ks, "item:"+id)
	}
	rdb.Del(ctx, ks...) // want `Del keys "item:<id>" for two different values of slices.All\(ids\) are on different hash slots`
	var one []string
	for i := range slices.All(ids) {
		if i == 0 {
			one = append(one, "first:{"+ids[0]+"}")
		}
	}
	rdb.Del(ctx, one...) // one key, whatever the index
}

// pending is an iterator of the module's own.
func pending(ids []string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, id := range ids {
			if !yield(id) {
				return
			}
		}
	}
}

func rangeOverOwnIterator(ctx context.Context, c rueidis.Client, ids []string) {
	var ks []string
	for id := range pending(ids) {
		ks = append(ks, "job:"+id)
	}
	c.Do(ctx, c.B().Del().Key(ks...).Build()) // want `DEL keys "job:<id>" for two different values of pending\(ids\) are on different hash slots`
	var tagged []string
	for id := range pending(ids) {
		tagged = append(tagged, "job:{q}:"+id)
	}
	c.Do(ctx, c.B().Del().Key(tagged...).Build()) // one constant tag
}
