package values

import (
	"context"
	"strings"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A strings.Builder written on every path to its String call, and in a
// range loop over the builder's parts: each part after its separator.

type family string

func (f family) key(id string, parts ...string) string {
	var b strings.Builder
	b.WriteString(string(f))
	b.WriteByte(':')
	b.WriteString(id)
	for _, p := range parts {
		b.WriteByte(':')
		b.WriteString(p)
	}
	return b.String()
}

func (f family) tagged(id string, parts ...string) string {
	var b strings.Builder
	b.WriteString(string(f))
	b.WriteString(":{")
	b.WriteString(id)
	b.WriteString("}")
	for _, p := range parts {
		b.WriteString(":" + p)
	}
	return b.String()
}

// joinedKey is k += ":" + p over its parts.
func joinedKey(parts ...string) string {
	k := "app"
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

const event family = "event"

func builderLoops(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, id string) {
	rdb.MGet(ctx, event.key(id, "title"), event.key(id, "available"))                             // want `MGet keys "event:<id>:title" and "event:<id>:available" are on different hash slots`
	rdb.MGet(ctx, event.tagged(id, "title"), event.tagged(id, "available"))                       // one tag
	rdb.Rename(ctx, event.tagged(id, "meta"), event.key(id))                                      // want `Rename keys "event:\{<id>\}:meta" and "event:<id>" are on different hash slots.*; make id the hash tag of "event:<id>" too, as in "event:\{<id>\}"`
	rdb.Rename(ctx, event.tagged(id, "meta"), event.tagged(id))                                   // one tag
	rc.Do(ctx, rc.B().Mget().Key(joinedKey("u", id), joinedKey("o", id)).Build())                 // want `MGET keys "app:u:<id>" and "app:o:<id>" are on different hash slots`
	rc.Do(ctx, rc.B().Mget().Key(joinedKey("{"+id+"}", "u"), joinedKey("{"+id+"}", "o")).Build()) // one tag
}

// A write on some paths only is not read.
func conditionalWrite(ctx context.Context, rdb *goredis.ClusterClient, id string, tagged bool) {
	var b strings.Builder
	b.WriteString("x:")
	if tagged {
		b.WriteString("{")
	}
	b.WriteString(id)
	rdb.MGet(ctx, b.String(), "x:"+id)
}
