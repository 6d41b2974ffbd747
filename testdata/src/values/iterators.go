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

// A helper that collects a key per value of the iterator it is given, by
// the function it is given, is read at each call as that family.
func CollectKeys[T any](seq iter.Seq[T], key func(T) string) []string { // want CollectKeys:`keys p2\(p1\[i\]\) for each element of p1`
	var out []string
	for x := range seq {
		out = append(out, key(x))
	}
	return out
}

func collectedBySeq(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, seq iter.Seq[string], tenant string) {
	rdb.MGet(ctx, CollectKeys(seq, func(id string) string { return "sku:" + id })...)                      // want `MGet keys "sku:<value of seq>" for two different values of seq are on different hash slots`
	c.Do(ctx, c.B().Del().Key(CollectKeys(seq, func(id string) string { return "sku:" + id })...).Build()) // want `DEL keys "sku:<value of seq>" for two different values of seq are on different hash slots`
	rdb.MGet(ctx, CollectKeys(seq, func(id string) string { return "sku:{" + tenant + "}:" + id })...)
	c.Do(ctx, c.B().Del().Key(CollectKeys(seq, func(id string) string { return "sku:{" + tenant + "}:" + id })...).Build())
}

// SkuKeys builds one key per value of its iterator.
func SkuKeys(seq iter.Seq[string]) []string { // want SkuKeys:`keys "sku:"\+p1\[i\] for each element of p1`
	var out []string
	for id := range seq {
		out = append(out, "sku:"+id)
	}
	return out
}

// TenantKeys builds them under one tenant's tag (the loop's body reads the
// tenant as a value of its own, the same for every element).
func TenantKeys(tenant string, seq iter.Seq[string]) []string { // want TenantKeys:`keys "sku:\{"\+\?\+"\}:"\+p2\[i\] for each element of p2`
	var out []string
	for id := range seq {
		out = append(out, "sku:{"+tenant+"}:"+id)
	}
	return out
}

func builtBySeq(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, seq iter.Seq[string], tenant string) {
	rdb.Del(ctx, SkuKeys(seq)...)                        // want `Del keys "sku:<value of seq>" for two different values of seq are on different hash slots`
	c.Do(ctx, c.B().Mget().Key(SkuKeys(seq)...).Build()) // want `MGET keys "sku:<value of seq>" for two different values of seq are on different hash slots`
	rdb.Del(ctx, TenantKeys(tenant, seq)...)
	c.Do(ctx, c.B().Mget().Key(TenantKeys(tenant, seq)...).Build())
}

// An iterator written in place and collected: one key per element of the
// slice it ranges over.
func collectedLiteral(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, regions []string, tenant string) {
	srcs := slices.Collect(func(yield func(string) bool) {
		for _, r := range regions {
			if !yield("trending:" + r) {
				return
			}
		}
	})
	rdb.ZInterStore(ctx, "trending:global", &goredis.ZStore{Keys: srcs}) // want `ZInterStore keys "trending:global" and "trending:<regions\[i\]>" are on different hash slots`
	c.Do(ctx, c.B().Del().Key(srcs...).Build())                          // want `DEL keys "trending:<regions\[i\]>" for two different elements of regions are on different hash slots`
	tagged := slices.Collect(func(yield func(string) bool) {
		for _, r := range regions {
			if !yield("trending:{" + tenant + "}:" + r) {
				return
			}
		}
	})
	c.Do(ctx, c.B().Del().Key(tagged...).Build())
}
