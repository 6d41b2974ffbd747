package values

import (
	"context"
	"strconv"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// Batch shapes beside the plain loop (collections.go): one of two slices,
// a generic helper mapping ids to keys, a slice made with a length the
// code does not fix and filled by index, and a map's keys.

// A slice made with a length the code does not fix, filled by index.
func byIndex(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, n int, tenant string) {
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
