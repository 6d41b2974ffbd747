// Package hottags runs with -hot-tags: a constant tag with a per-entity value
// outside it puts every entity on one slot.
package hottags

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

func hot(ctx context.Context, rdb *redis.ClusterClient, userID int) {
	rdb.Get(ctx, "feed:{global}:"+strconv.Itoa(userID)) // want `Get key "feed:\{global\}:<strconv.Itoa\(userID\)>" has the constant hash tag \{global\}: every value of strconv.Itoa\(userID\) is on its slot 10408, one hot slot`
	rdb.Get(ctx, fmt.Sprintf("feed:{%d}", userID))      // the entity is the tag
	rdb.Get(ctx, fmt.Sprintf("feed:%d", userID))        // no tag
	rdb.Get(ctx, "feed:{global}:all")                   // one key, no entity
	rdb.Get(ctx, fmt.Sprintf("user:{}:%d", userID))     // want `^Get key "user:\{\}:<userID>" has an empty hash tag \{\}, so the whole key is hashed; put the entity's id between the braces, or remove them$`
}

// A hot key beside a key of another value that the constant tag keeps on
// its slot: with the value in the tag, the command crosses slots, and the
// finding says what to do about that too.
func together(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, "feed:{global}:"+a, "feed:{global}:"+b)         // want `^MGet key "feed:\{global\}:<a>" .*; put a in the tag instead, and as "feed:\{global\}:<b>" is then on another slot, send one call per slot, since one hash tag for every such key would put them all on one slot$` `^MGet key "feed:\{global\}:<b>" .*; put b in the tag instead, and as "feed:\{global\}:<a>" is then on another slot, send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.SUnionStore(ctx, "feed:{global}:all", "feed:{global}:"+a) // want `^SUnionStore key "feed:\{global\}:<a>" .*; put a in the tag instead, and as "feed:\{global\}:all" is then on another slot, read each key, compute the result in the client and write it to the destination, since the only tag both could share is a constant one, which puts every such key on one slot$`
	rdb.MGet(ctx, "feed:{global}:"+a, "feed:{global}:"+a+":meta") // want `^MGet key "feed:\{global\}:<a>" .*; put a in the tag instead$` `^MGet key "feed:\{global\}:<a>:meta" .*; put a in the tag instead$`
}
