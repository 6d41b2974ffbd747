// Package search materialises faceted lot searches into Redis sets.
package search

import (
	"context"

	"github.com/zeromicro/go-zero/core/stores/redis"

	"example.com/auction/internal/keys"
)

// Facets indexes lots by facet and answers refinement queries.
type Facets struct {
	store *redis.Redis
	index keys.FacetIndex
}

func NewFacets(store *redis.Redis, index keys.FacetIndex) *Facets {
	return &Facets{store: store, index: index}
}

// Tag files a lot under facets in the index and in the legacy sets.
func (f *Facets) Tag(ctx context.Context, id keys.LotID, facets ...keys.Facet) error {
	return f.store.PipelinedCtx(ctx, func(p redis.Pipeliner) error {
		for _, fc := range facets {
			p.SAdd(ctx, f.index.Facet(fc), id.String())
			p.SAdd(ctx, fc.Key(), id.String())
			p.ZIncrBy(ctx, f.index.Rank(fc), 1, id.String())
		}
		return nil
	})
}

func (f *Facets) facetKeys(facets []keys.Facet) []string {
	out := make([]string, 0, len(facets))
	for _, fc := range facets {
		out = append(out, f.index.Facet(fc))
	}
	return out
}

// Union materialises "any of these facets" under the query name.
func (f *Facets) Union(ctx context.Context, query string, facets ...keys.Facet) (int, error) {
	// case B95: none
	return f.store.SunionstoreCtx(ctx, f.index.Result(query), f.facetKeys(facets)...)
}

// UnionForAPI materialises the union where the public search API reads it.
func (f *Facets) UnionForAPI(ctx context.Context, query string, facets ...keys.Facet) (int, error) {
	// case B96: crossslot, doubletag
	return f.store.SunionstoreCtx(ctx, keys.SearchResult(f.index.Name, query), f.facetKeys(facets)...)
}

// IntersectLegacy answers "all of these facets" from the legacy sets.
func (f *Facets) IntersectLegacy(ctx context.Context, query string, facets ...keys.Facet) (int, error) {
	// case B97: crossslot
	src := make([]string, 0, len(facets))
	for _, fc := range facets {
		src = append(src, fc.Key())
	}
	return f.store.SinterstoreCtx(ctx, "facet:q:"+query, src...)
}

// HotInFacets ranks lots across facets by how often they were tagged.
func (f *Facets) HotInFacets(ctx context.Context, query string, facets ...keys.Facet) (int64, error) {
	// case B98: none
	src := make([]string, 0, len(facets))
	for _, fc := range facets {
		src = append(src, f.index.Rank(fc))
	}
	return f.store.ZunionstoreCtx(ctx, f.index.Result("hot:"+query), &redis.ZStore{Keys: src, Aggregate: "SUM"})
}

// HotAcrossCategories merges the legacy per-category boards for the search
// landing page.
func (f *Facets) HotAcrossCategories(ctx context.Context, categories ...string) (int64, error) {
	// case B99: crossslot
	src := make([]string, 0, len(categories))
	for _, c := range categories {
		src = append(src, keys.CategoryHot(c))
	}
	return f.store.ZunionstoreCtx(ctx, f.index.Result("hot:categories"), &redis.ZStore{Keys: src, Aggregate: "MAX"})
}

// LegacyCounts returns the size of each legacy facet set, pipelined.
func (f *Facets) LegacyCounts(ctx context.Context, facets ...keys.Facet) (map[keys.Facet]int64, error) {
	// case B100: none
	cmds := make(map[keys.Facet]interface{ Val() int64 }, len(facets))
	err := f.store.PipelinedCtx(ctx, func(p redis.Pipeliner) error {
		for _, fc := range facets {
			cmds[fc] = p.SCard(ctx, fc.Key())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[keys.Facet]int64, len(facets))
	for fc, c := range cmds {
		out[fc] = c.Val()
	}
	return out, nil
}
