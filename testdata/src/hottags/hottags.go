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
