package values

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"values/mapping"

	expmaps "golang.org/x/exp/maps"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// Batch shapes beside the plain loop (collections.go): one of two slices,
// a generic helper mapping ids to keys, a slice made with a length the
// code does not fix and filled by index, and a map's keys.

// A batch that is the caller's slice or, with a prefix, a slice built
// from it (grafana/loki's redis cache): the command runs with one of the
// two, each judged as it would be alone. The caller's keys are its
// callers' to judge; the prefixed keys are judged here, the prefix a
// value that may hold a hash tag of its own.
type prefixed struct {
	rdb    *goredis.ClusterClient
	rc     rueidis.Client
	prefix string
}

func (c *prefixed) fetch(ctx context.Context, keys []string) {
	ks := keys
	if c.prefix != "" {
		ks = make([]string, 0, len(keys))
		for _, k := range keys {
			ks = append(ks, c.prefix+k)
		}
	}
	c.rdb.MGet(ctx, ks...) // want `MGet keys "<c.prefix><keys\[i\]>" for two different elements of keys are on different hash slots for all but about 1 in 16384 pairs of them \(assuming keys\[i\] holds no brace\), unless c.prefix holds a hash tag; group the keys by slot`
}

func (c *prefixed) fetchBuilt(ctx context.Context, keys []string) {
	ks := keys
	if c.prefix != "" {
		ks = make([]string, len(keys))
		for i, k := range keys {
			ks[i] = c.prefix + ":" + k
		}
	}
	c.rc.Do(ctx, c.rc.B().Mget().Key(ks...).Build()) // want `MGET keys "<c.prefix>:<keys\[i\]>" for two different elements of keys are on different hash slots`
}

func (c *prefixed) callers(ctx context.Context) {
	c.fetch(ctx, []string{"user:1", "user:2"})      // want `MGet keys "user:1" \(slot \d+\) and "user:2" \(slot \d+\) are on different hash slots in prefixed.fetch`
	c.fetch(ctx, []string{"{u}:1", "{u}:2"})        // one tag
	c.fetchBuilt(ctx, []string{"user:1", "user:2"}) // want `MGET keys "user:1" \(slot \d+\) and "user:2" \(slot \d+\) are on different hash slots in prefixed.fetchBuilt`
	c.fetchBuilt(ctx, []string{"{u}:1", "{u}:2"})   // one tag
}

// The prefix from configuration, as loki has it: where it runs a cluster,
// its operators give the prefix a hash tag, so the prefixed keys are not
// judged; the caller's still are.
type cacheConfig struct {
	Prefix string `yaml:"prefix"`
}

type configured struct {
	rdb *goredis.ClusterClient
	cfg cacheConfig
}

func (c *configured) fetch(ctx context.Context, keys []string) {
	ks := keys
	if c.cfg.Prefix != "" {
		ks = make([]string, 0, len(keys))
		for _, k := range keys {
			ks = append(ks, c.cfg.Prefix+k)
		}
	}
	c.rdb.MGet(ctx, ks...)
}

func (c *configured) callers(ctx context.Context) {
	c.fetch(ctx, []string{"user:1", "user:2"}) // want `MGet keys "user:1" \(slot \d+\) and "user:2" \(slot \d+\) are on different hash slots in configured.fetch`
	c.fetch(ctx, []string{"{u}:1", "{u}:2"})   // one tag
}

// One slice or, when it is empty, another.
func (c *prefixed) fetchChunks(ctx context.Context, ids []string) {
	ks := make([]string, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, "chunk:"+id)
	}
	if len(ks) == 0 {
		ks = []string{"chunk:none"}
	}
	c.rdb.MGet(ctx, ks...)                           // want `MGet keys "chunk:<ids\[i\]>" for two different elements of ids are on different hash slots for all but about 1 in 16384 pairs of them \(assuming ids\[i\] holds no brace\); group the keys by slot`
	c.rc.Do(ctx, c.rc.B().Mget().Key(ks...).Build()) // want `MGET keys "chunk:<ids\[i\]>" for two different elements of ids`
}

func (c *prefixed) fetchTagged(ctx context.Context, user string, ids []string) {
	ks := make([]string, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, "chunk:{"+user+"}:"+id)
	}
	if len(ks) == 0 {
		ks = []string{"chunk:none"} // never beside the tagged keys
	}
	c.rdb.MGet(ctx, ks...)

	pair := []string{"a:1", "{a}:2"}
	if user == "" {
		pair = []string{"b:1"}
	}
	c.rdb.MGet(ctx, pair...) // want `MGet keys "a:1" \(slot \d+\) and "\{a\}:2" \(slot \d+\) are on different hash slots`
	one := []string{"a:1"}
	if user == "" {
		one = []string{"b:1"}
	}
	c.rdb.MGet(ctx, one...) // one key either way
}

// Generic helpers mapping ids to keys.
func mapTo[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func userKey(id int64) string { return "user:" + strconv.FormatInt(id, 10) }

func taggedUserKey(id int64) string { return "{users}:" + strconv.FormatInt(id, 10) }

func mapped(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, ids []int64, shop string) {
	rdb.MGet(ctx, mapTo(ids, userKey)...)                         // want `MGet keys "user:<ids\[i\]>" for two different elements of ids are on different hash slots for all but about 1 in 16384 pairs of them; group the keys by slot`
	rdb.MGet(ctx, mapTo(ids, taggedUserKey)...)                   // one tag
	rc.Do(ctx, rc.B().Mget().Key(mapTo(ids, userKey)...).Build()) // want `MGET keys "user:<ids\[i\]>" for two different elements of ids`
	rdb.MGet(ctx, mapTo([]int64{1, 2}, userKey)...)               // want `MGet keys "user:1" \(slot \d+\) and "user:2" \(slot \d+\) are on different hash slots`
	rdb.MGet(ctx, mapTo([]int64{1, 2}, taggedUserKey)...)         // one tag

	orders := mapTo(ids, func(id int64) string {
		return "order:" + strconv.FormatInt(id, 10)
	})
	rdb.MGet(ctx, orders...) // want `MGet keys "order:<ids\[i\]>" for two different elements of ids`
	stock := mapTo(ids, func(id int64) string {
		return "stock:{" + shop + "}:" + strconv.FormatInt(id, 10)
	})
	rdb.MGet(ctx, stock...)                                                                                                     // one tag
	rc.Do(ctx, rc.B().Mget().Key(mapTo(ids, func(id int64) string { return "order:" + strconv.FormatInt(id, 10) })...).Build()) // want `MGET keys "order:<ids\[i\]>" for two different elements of ids`

	// The helpers in another package.
	rdb.MGet(ctx, mapping.Map(ids, userKey)...)                                // want `MGet keys "user:<ids\[i\]>" for two different elements of ids`
	rc.Do(ctx, rc.B().Mget().Key(mapping.MapInPlace(ids, userKey)...).Build()) // want `MGET keys "user:<ids\[i\]>" for two different elements of ids`
	rdb.MGet(ctx, mapping.Map(ids, taggedUserKey)...)                          // one tag
	rdb.MGet(ctx, mapping.FirstOf(ids, userKey)...)                            // one element's key, many times
	shards := mapping.Map(ids, func(id int64) string {
		return strconv.FormatInt(id%16, 10) + ":{shard}"
	})
	rdb.MGet(ctx, shards...) // one tag
}

// A slice made with a length the code does not fix, filled by index.
func byIndex(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, n int, tenant string, tenants []string) {
	keys := make([]string, n)
	for i := range n {
		keys[i] = "b:" + strconv.Itoa(i)
	}
	rdb.Del(ctx, keys...) // want `Del keys "b:<strconv.Itoa\(i\)>" for two different iterations of the loop on i < n are on different hash slots for all but about 1 in 16384 pairs of them; group the keys by slot`

	counted := make([]string, n)
	for i := 0; i < n; i++ {
		counted[i] = "b:" + strconv.Itoa(i)
	}
	rc.Do(ctx, rc.B().Mget().Key(counted...).Build()) // want `MGET keys "b:<strconv.Itoa\(i\)>" for two different iterations of the loop on i < n are on different hash slots`

	tagged := make([]string, n)
	for i := range n {
		tagged[i] = "b:{" + tenant + "}:" + strconv.Itoa(i)
	}
	rdb.Del(ctx, tagged...) // one tag

	longer := make([]string, n+1)
	for i := range n {
		longer[i] = "b:" + strconv.Itoa(i)
	}
	rdb.Del(ctx, longer...) // its last key stays "": not read

	fromOne := make([]string, n)
	for i := 1; i < n; i++ {
		fromOne[i] = "b:" + strconv.Itoa(i)
	}
	rdb.Del(ctx, fromOne...) // its first key stays "": not read

	names := make([]string, len(tenants))
	for i := 0; i < len(tenants); i++ {
		names[i] = "t:" + tenants[i]
	}
	rdb.Del(ctx, names...) // want `Del keys "t:<tenants\[i\]>" for two different iterations of the loop on i < len\(tenants\)`
	shorter := make([]string, len(tenants))
	for i := 0; i < len(tenants)-1; i++ {
		shorter[i] = "t:" + tenants[i]
	}
	rdb.Del(ctx, shorter...) // its last key stays "": not read

	copied := make([]string, n)
	for i := range n {
		copied[i] = "b:" + strconv.Itoa(i)
	}
	copy(copied, []string{"{t}:a", "{t}:b"})
	rdb.Del(ctx, copied...) // overwritten: not read

	var appended []string
	for i := range n {
		appended = append(appended, "b:"+strconv.Itoa(i))
	}
	rdb.Del(ctx, appended...) // want `Del keys "b:<strconv.Itoa\(i\)>" for two different iterations of the loop on i < n`

	three := make([]string, 3)
	for i := range 3 {
		three[i] = "b:{" + tenant + "}:" + strconv.Itoa(i)
	}
	rdb.Del(ctx, three...)
}

// A map's keys, set in a loop over an input.
func mapKeys(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, ids []string, user string) {
	set := map[string]bool{}
	for _, id := range ids {
		set["sess:"+id] = true
	}
	rdb.Del(ctx, slices.Collect(maps.Keys(set))...) // want `Del keys "sess:<ids\[i\]>" for two different elements of ids`
	rdb.Del(ctx, slices.Sorted(maps.Keys(set))...)  // want `Del keys "sess:<ids\[i\]>" for two different elements of ids`
	var ks []string
	for k := range set {
		ks = append(ks, k)
	}
	rc.Do(ctx, rc.B().Mget().Key(ks...).Build()) // want `MGET keys "sess:<ids\[i\]>" for two different elements of ids`

	tagged := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		tagged["sess:{"+user+"}:"+id] = struct{}{}
	}
	rdb.Del(ctx, slices.Collect(maps.Keys(tagged))...) // one tag
	for k := range tagged {
		ks = append(ks, k)
	}
	rdb.Del(ctx, ks...) // one tag, or "sess:<ids[i]>" beside it: two lists, ks appended to twice, not read

	byHand := make([]string, 0, len(set))
	for k := range set {
		byHand = append(byHand, k)
	}
	rdb.Del(ctx, byHand...) // want `Del keys "sess:<ids\[i\]>" for two different elements of ids`

	withBase := map[string]bool{"sess:" + user: true}
	for _, id := range ids {
		withBase["sess:"+id] = true
	}
	rdb.Del(ctx, slices.Collect(maps.Keys(withBase))...) // set at two places: not read

	passed := map[string]bool{}
	for _, id := range ids {
		passed["sess:"+id] = true
	}
	fill(passed)
	rdb.Del(ctx, slices.Collect(maps.Keys(passed))...) // fill may set any key: not read

	last := map[string]bool{}
	i := 0
	for ; i < len(ids); i++ {
	}
	last["sess:"+strconv.Itoa(i)] = true
	rdb.Del(ctx, slices.Sorted(maps.Keys(last))...) // set once, after the loop

	counted := map[string]struct{}{}
	for d := 0; d < len(ids); d++ {
		counted["day:"+strconv.Itoa(d)] = struct{}{}
	}
	rc.Do(ctx, rc.B().Mget().Key(slices.Sorted(maps.Keys(counted))...).Build()) // want `MGET keys "day:<strconv.Itoa\(d\)>" for two different iterations of the loop on d < len\(ids\)`
}

func mapMade(ctx context.Context, rdb *goredis.ClusterClient, ids []int64) {
	seen := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		seen[userKey(id)] = struct{}{}
	}
	rdb.Del(ctx, expmaps.Keys(seen)...)                // want `Del keys "user:<ids\[i\]>" for two different elements of ids`
	rdb.Unlink(ctx, slices.Sorted(maps.Keys(seen))...) // want `Unlink keys "user:<ids\[i\]>" for two different elements of ids are on different hash slots for all but about 1 in 16384 pairs of them; group the keys by slot`
}

func fill(m map[string]bool) { m["other"] = true }

// A slice made empty with a constant capacity, appended to in a counted
// loop, whose start the code may not fix.
func countedAppends(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, lastDay int, city string) {
	week := make([]string, 0, 7)
	for d := lastDay - 6; d <= lastDay; d++ {
		week = append(week, "top:day:"+strconv.Itoa(d))
	}
	rdb.ZInterStore(ctx, "top:week", &goredis.ZStore{Keys: week}) // want `ZInterStore keys "top:week" and "top:day:<strconv.Itoa\(d\)>" are on different hash slots`

	days := make([]string, 0, 7)
	for d := 0; d < lastDay; d++ {
		days = append(days, "top:day:"+strconv.Itoa(d))
	}
	rc.Do(ctx, rc.B().Mget().Key(days...).Build()) // want `MGET keys "top:day:<strconv.Itoa\(d\)>" for two different iterations of the loop on d < lastDay are on different hash slots`

	tagged := make([]string, 0, 7)
	for d := lastDay - 6; d <= lastDay; d++ {
		tagged = append(tagged, "top:{"+city+"}:day:"+strconv.Itoa(d))
	}
	rdb.ZInterStore(ctx, "top:{"+city+"}:week", &goredis.ZStore{Keys: tagged})
}
