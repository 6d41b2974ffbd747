// Package values pins the value model: what a key holds, however the code
// happens to hold it (types, fields, collections), across this package and
// values/keys.
package values

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type entity struct{ ID int }

type label struct{ Name string }

type spanTag struct {
	Span  int
	Owner *entity
}

// Types decide braces: integers, floats, bools and times hold none, so the
// case is made for every value, with no assumption; a struct prints its
// fields inside braces, which are a hash tag.
func typesDecideBraces(ctx context.Context, rdb *redis.ClusterClient, n int, f float64, on bool, at time.Time, e entity, l label, s spanTag, m map[string]int, ids []int) {
	rdb.MGet(ctx, fmt.Sprintf("n:%d:a", n), fmt.Sprintf("n:%d:b", n))                         // want `MGet keys "n:<n>:a" and "n:<n>:b" are on different hash slots for every value of n; make n their hash tag, as in "n:\{<n>\}:a"$`
	rdb.MGet(ctx, fmt.Sprintf("f:%v:a", f), fmt.Sprintf("f:%v:b", f))                         // want `MGet keys "f:<f>:a" and "f:<f>:b" are on different hash slots for every value of f; make f their hash tag, as in "f:\{<f>\}:a"$`
	rdb.MGet(ctx, "b:"+strconv.FormatBool(on)+":a", "b:"+strconv.FormatBool(on)+":b")         // want `MGet keys "b:<strconv.FormatBool\(on\)>:a" and "b:<strconv.FormatBool\(on\)>:b" are on different hash slots for every value of strconv.FormatBool\(on\); make strconv\.FormatBool\(on\) their hash tag, as in "b:\{<strconv\.FormatBool\(on\)>\}:a"$`
	rdb.MGet(ctx, "d:"+at.Format("2006-01-02")+":a", "d:"+at.Format("2006-01-02")+":b")       // want `MGet keys "d:<at.Format.*>:a" and "d:<at.Format.*>:b" are on different hash slots for every value of at.Format\("2006-01-02"\); make at\.Format\("2006-01-02"\) their hash tag, as in "d:\{<at\.Format\(\\"2006-01-02\\"\)>\}:a"$`
	rdb.MGet(ctx, fmt.Sprintf("e:%v:a", entity{ID: 5}), fmt.Sprintf("e:%v:b", entity{ID: 5})) // e:{5}:a and e:{5}:b: one tag
	rdb.MGet(ctx, fmt.Sprintf("e:%v:a", e), fmt.Sprintf("e:%v:b", e))                         // one struct value: its field is the tag
	rdb.MGet(ctx, fmt.Sprintf("e:%+v:a", e), fmt.Sprintf("e:%+v:b", e))                       // e:{ID:<e.ID>}:a: one tag
	rdb.MGet(ctx, fmt.Sprintf("e:%v:a", &e), fmt.Sprintf("e:%v:b", &e))                       // &{...}: one tag
	rdb.MGet(ctx, fmt.Sprintf("s:%v:a", s), fmt.Sprintf("s:%v:b", s))                         // {<span> 0xc...}: one tag
	rdb.MGet(ctx, fmt.Sprintf("e:%v:a", entity{ID: 5}), fmt.Sprintf("e:%v:b", entity{ID: 6})) // want `MGet keys "e:\{5\}:a" \(slot \d+\) and "e:\{6\}:b" \(slot \d+\) are on different hash slots`
	rdb.MGet(ctx, fmt.Sprintf("l:%v:a", l), fmt.Sprintf("l:%v:b", l))                         // a string field inside the braces is the tag
	rdb.MGet(ctx, fmt.Sprintf("m:%v:a", m), fmt.Sprintf("m:%v:b", m))                         // a map may print braces: never assumed to hold none
	rdb.MGet(ctx, fmt.Sprintf("i:%v:a", ids), fmt.Sprintf("i:%v:b", ids))                     // nor a slice
}
