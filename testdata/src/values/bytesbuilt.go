package values

import (
	"context"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
)

// A key built as bytes: appended to an empty buffer made with room, or
// written by fmt.Appendf and fmt.Append.
func bufferKey(id, field string) string {
	b := make([]byte, 0, 64)
	b = append(b, "user:"...)
	b = append(b, id...)
	b = append(b, ':')
	b = append(b, field...)
	return string(b)
}

func bufferKeyTagged(id, field string) string {
	b := make([]byte, 0, 64)
	b = append(b, "user:{"...)
	b = append(b, id...)
	b = append(b, "}:"...)
	b = append(b, field...)
	return string(b)
}

func bytesBuilt(ctx context.Context, rdb *goredis.ClusterClient) {
	rdb.MGet(ctx, bufferKey("1001", "profile"), bufferKey("1002", "profile")) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
	rdb.MGet(ctx, bufferKeyTagged("1001", "profile"), bufferKeyTagged("1001", "settings"))
	a := string(fmt.Appendf(nil, "user:%s:%s", "1001", "profile"))
	b := string(fmt.Appendf(nil, "user:%s:%s", "1002", "profile"))
	rdb.MGet(ctx, a, b) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
	c := string(fmt.Append([]byte("user:{1001}:"), "profile"))
	d := string(fmt.Append([]byte("user:{1001}:"), "settings"))
	rdb.MGet(ctx, c, d)
}

// Near-misses: two appends to one buffer with room write the same bytes
// (x is "user:2" after y's append), and a format the code does not fix.
func bytesBuiltUnknown(ctx context.Context, rdb *goredis.ClusterClient, format string) {
	buf := make([]byte, 0, 64)
	x := append(buf, "user:1"...)
	y := append(buf, "user:2"...)
	rdb.MGet(ctx, string(x), string(y))
	rdb.MGet(ctx, string(fmt.Appendf(nil, format, "1001")), string(fmt.Appendf(nil, format, "1002")))
}

// A struct the caller writes out, printed by its String method: each field
// is the value its literal gives.
type entityRef struct{ ID, Field string }

func (r entityRef) String() string { return "user:" + r.ID + ":" + r.Field } // want String:`key "user:"\+of\(p1, r.ID\)\+":"\+of\(p1, r.Field\)`

func printedRefs(ctx context.Context, rdb *goredis.ClusterClient) {
	rdb.MGet(ctx, fmt.Sprint(entityRef{ID: "1001", Field: "profile"}), fmt.Sprint(entityRef{ID: "1002", Field: "profile"})) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
	rdb.MGet(ctx, fmt.Sprint(entityRef{ID: "{1001}", Field: "profile"}), fmt.Sprint(entityRef{ID: "{1001}", Field: "settings"}))
}

// A struct a function is given the address of may be changed: its fields
// are its own values, not the literal's.
func printedRefsChanged(ctx context.Context, rdb *goredis.ClusterClient, retarget func(*entityRef)) {
	r := entityRef{ID: "1001", Field: "profile"}
	retarget(&r)
	rdb.MGet(ctx, fmt.Sprint(r), fmt.Sprint(entityRef{ID: "1002", Field: "profile"})) // want `MGet keys "user:<r.ID>:<r.Field>" and "user:1002:profile" are on different hash slots for all but about 1 in 16384 values`
}
