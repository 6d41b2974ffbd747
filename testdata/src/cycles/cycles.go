// Package cycles holds code whose reading recurses: each kind of cycle the
// analyzer meets in real code (a String method read through a conversion
// it strips, mutually recursive functions, recursive types, a String that
// formats its own receiver, generics through methods) must end, and a value
// it cannot read is unknown, never a finding.
package cycles

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Method, instantiation, method: the summary of String writes float64(s),
// the conversion a caller's Score goes through, and a Score prints with
// String again.
type Score float64

func (s Score) String() string { return strconv.FormatFloat(float64(s), 'f', -1, 64) } // want String:`key %v\(p1\)`

func scoreKey(s Score) string { return fmt.Sprintf("score:%v", s) }

// Rank is the same shape with an integer, which fmt writes exactly.
type Rank int

func (r Rank) String() string { return fmt.Sprint(int(r)) } // want String:`key %v\(p1\)`

func rankKey(r Rank) string { return fmt.Sprintf("rank:%v", r) }

func scores(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, scoreKey(1), scoreKey(2)) // want `MGet keys "score:<…>" and "score:<…>" are on different hash slots for all but about 1 in 16384 pairs of different values`
	rdb.MGet(ctx, "{"+scoreKey(1)+"}:a", "{"+scoreKey(1)+"}:b")
	rdb.MGet(ctx, rankKey(1), rankKey(2)) // want `MGet keys "rank:1" \(slot 8559\) and "rank:2" \(slot 4364\) are on different hash slots`
	rdb.MGet(ctx, "{"+rankKey(1)+"}:a", "{"+rankKey(1)+"}:b")
}

// Mutually recursive functions: each one's summary is in progress while
// the other reads it.
func even(n int, id string) string {
	if n == 0 {
		return "even:" + id
	}
	return odd(n-1, id)
}

func odd(n int, id string) string {
	if n == 0 {
		return "odd:" + id
	}
	return even(n-1, id)
}

func mutual(ctx context.Context, rdb *redis.ClusterClient, id string) {
	rdb.MGet(ctx, even(4, id), even(4, id))
}

// A recursive type whose String follows the type's own links.
type node struct {
	name string
	next *node
}

func (n *node) String() string { // want String:`key of\(p1, n.name\) \| of\(p1, n.name\)\+":"\+\?`
	if n.next == nil {
		return n.name
	}
	return n.name + ":" + n.next.String()
}

func linked(ctx context.Context, rdb *redis.ClusterClient, a, b *node) {
	rdb.MGet(ctx, fmt.Sprint(a), fmt.Sprint(b))
	rdb.MGet(ctx, fmt.Sprintf("{%v}:x", a), fmt.Sprintf("{%v}:y", a))
}

// A String that formats its own receiver (go vet's printf check reports
// it; it recurses at run time) and one that formats its receiver's
// underlying value, which does not.
type Label string

func (l Label) String() string { return fmt.Sprintf("%v", l) } // want String:`key %s\(p1\)`

type Code int

func (c Code) String() string { return fmt.Sprintf("c%d", int(c)) } // want String:`key "c"\+%d\(p1\)`

func labels(ctx context.Context, rdb *redis.ClusterClient, l Label) {
	// Whatever l prints as, the two differ in their last byte only.
	rdb.MGet(ctx, fmt.Sprintf("label:%v:a", l), fmt.Sprintf("label:%v:b", l))       // want `MGet keys "label:<l>:a" and "label:<l>:b" are on different hash slots for every value of l \(assuming l holds no brace\)`
	rdb.MGet(ctx, fmt.Sprintf("code:%v", Code(1)), fmt.Sprintf("code:%v", Code(2))) // want `MGet keys "code:c1" \(slot 16033\) and "code:c2" \(slot 3778\) are on different hash slots`
}

// Generics through a method: a wrapper whose String is the key of what it
// wraps, itself a wrapper.
type Keyed interface{ Key() string } // want Key:`key "leaf" \| "k:"\+\?`

func KeyOf[T Keyed](x T) string { return "k:" + x.Key() } // want KeyOf:`key "k:"\+\?`

type wrap struct{ inner *wrap }

func (w *wrap) Key() string { // want Key:`key "leaf" \| "k:"\+\?`
	if w.inner == nil {
		return "leaf"
	}
	return KeyOf(w.inner)
}

func generic(ctx context.Context, rdb *redis.ClusterClient, w *wrap) {
	rdb.MGet(ctx, KeyOf(w)+":{1}", KeyOf(w)+":{1}")
}
