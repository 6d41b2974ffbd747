// Package templatefix pins the template fix: the one value every key shares
// goes into a hash tag, in each key's template at the call or in its builder.
package templatefix

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

func fixed(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id))        // want `MGet keys "order:<id>:items" and "order:<id>:total" are on different hash slots for every value of id`
	rdb.Del(ctx, "cart:"+strconv.Itoa(id)+":lines", "cart:"+strconv.Itoa(id)+":sum")           // want `Del keys "cart:<strconv.Itoa\(id\)>:lines" and "cart:<strconv.Itoa\(id\)>:sum" are on different hash slots for all but about 1 in 16384 values of strconv.Itoa\(id\)`
	rdb.MGet(ctx, fmt.Sprintf("user:%05d:profile", id), fmt.Sprintf("user:%05d:settings", id)) // want `for all but about 1 in 16384 values of id`
}

func notFixed(ctx context.Context, rdb *redis.ClusterClient, id int, name string) {
	// A value that may be empty would make "{}", hashed whole.
	rdb.MGet(ctx, fmt.Sprintf("k:%x:a", name), fmt.Sprintf("k:%x:bb", name)) // want `for all but about 1 in 16384 values of name`
	// Two values in one template.
	rdb.MGet(ctx, fmt.Sprintf("k:%d:%d:a", id, id), fmt.Sprintf("k:%d:%d:bb", id, id)) // want `for all but about 1 in 16384 values of id`
	// A key built before the call: its template may serve other calls.
	items := fmt.Sprintf("order:%d:items", id)
	rdb.MGet(ctx, items, fmt.Sprintf("order:%d:total", id)) // want `for every value of id`
}

// Key builders of this package: the fix goes into the builder, so one edit
// fixes every caller.
func itemsKey(id int) string { return fmt.Sprintf("order:%d:items", id) }

func totalKey(id int) string {
	return "order:" + strconv.Itoa(id) + ":total"
}

type cartKeys struct{}

func (cartKeys) lines(id int) string { return fmt.Sprintf("cart:%d:lines", id) }

func (cartKeys) sum(id int) string { return fmt.Sprintf("cart:%d:sum", id) }

func fixedInBuilders(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, itemsKey(id), fmt.Sprintf("order:%d:total", id)) // want `make id their hash tag, as in "order:\{<id>\}:items"`
	var k cartKeys
	rdb.Del(ctx, k.lines(id), k.sum(id)) // want `make id their hash tag, as in "cart:\{<id>\}:lines"`
}

// A builder that does more than return its template is left alone.
func loggedKey(id int) string {
	key := fmt.Sprintf("log:%d:a", id)
	return key
}

func notFixedBuilders(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.MGet(ctx, loggedKey(id), fmt.Sprintf("log:%d:b", id))         // want `for every value of id`
	rdb.MGet(ctx, totalKey(id), fmt.Sprintf("order:%d:total2", id+1)) // want `for all but about 1 in 16384`
}
