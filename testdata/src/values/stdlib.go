package values

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// The standard library's string functions are read by what they compute
// (one table): the same function of the same value is one value, a
// piece-wise one keeps the key's tag, a constant is computed.

func stringFunctions(ctx context.Context, rdb *goredis.ClusterClient, name, id string, n int64) {
	rdb.MGet(ctx, "u:"+strings.ToLower(name)+":a", "u:"+strings.ToLower(name)+":b")                                             // want `MGet keys "u:<strings.ToLower\(name\)>:a" and "u:<strings.ToLower\(name\)>:b" are on different hash slots for every value of strings.ToLower\(name\)`
	rdb.MGet(ctx, strings.ToLower("U:{"+name+"}:a"), strings.ToLower("u:{"+name+"}:b"))                                         // one tag, lower-cased
	rdb.MGet(ctx, "t:"+strings.TrimSpace(id)+":a", "t:"+strings.TrimSpace(id)+":b")                                             // want `MGet keys "t:<strings.TrimSpace\(id\)>:a" and "t:<strings.TrimSpace\(id\)>:b" are on different hash slots for every value of strings.TrimSpace\(id\)`
	rdb.MGet(ctx, "t:{"+strings.TrimSpace(id)+"}:a", "t:{"+strings.TrimSpace(id)+"}:b")                                         // one value in one tag
	rdb.MGet(ctx, "e:"+url.PathEscape(id)+":a", "e:"+url.PathEscape(id)+":b")                                                   // want `MGet keys "e:<url.PathEscape\(id\)>:a" and "e:<url.PathEscape\(id\)>:b" are on different hash slots for every value of url.PathEscape\(id\)`
	rdb.MGet(ctx, "b:"+base64.RawURLEncoding.EncodeToString([]byte(id)), "c:"+base64.RawURLEncoding.EncodeToString([]byte(id))) // want `MGet keys "b:<base64.RawURLEncoding.EncodeToString\(\[\]byte\(id\)\)>" and "c:<base64.RawURLEncoding.EncodeToString\(\[\]byte\(id\)\)>" are on different hash slots`
	rdb.MGet(ctx, strings.ReplaceAll("a.b", ".", ":"), "a:b")                                                                   // "a:b" twice
	rdb.MGet(ctx, strings.TrimPrefix("x:a", "x:"), "b")                                                                         // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	rdb.MGet(ctx, fmt.Sprint("n:", n, ":a"), fmt.Sprint("n:", n, ":b"))                                                         // want `MGet keys "n:<n>:a" and "n:<n>:b" are on different hash slots for every value of n`
	rdb.MGet(ctx, fmt.Sprint("n:{", n, "}:a"), fmt.Sprint("n:{", n, "}:b"))                                                     // one tag
	rdb.MGet(ctx, "x:"+strings.ToLower(name), "x:"+strings.ToUpper(name))                                                       // two functions: not compared
}

func paths(ctx context.Context, rdb *goredis.ClusterClient, id string) {
	rdb.Del(ctx, path.Join("thumb", "small", id), path.Join("thumb", "large", id))     // want `Del keys "thumb/small/<id>" and "thumb/large/<id>" are on different hash slots`
	rdb.Del(ctx, filepath.Join("thumb", "small", id), filepath.Join("thumb", "l", id)) // want `Del keys "thumb/small/<id>" and "thumb/l/<id>" are on different hash slots`
	rdb.Del(ctx, path.Join("{"+id+"}", "small"), path.Join("{"+id+"}", "large"))       // one tag
	rdb.Del(ctx, path.Join("a/", "b"), "a/b")                                          // Join cleans: "a/b" twice
}

func buffers(ctx context.Context, rdb *goredis.ClusterClient, id string, a, b int64) {
	var b1, b2 bytes.Buffer
	b1.WriteString("cart:")
	b1.WriteString(id)
	b2.WriteString("order:")
	b2.WriteString(id)
	rdb.MGet(ctx, b1.String(), b2.String()) // want `MGet keys "cart:<id>" and "order:<id>" are on different hash slots`
	var t1, t2 bytes.Buffer
	t1.WriteString("cart:{")
	t1.WriteString(id)
	t1.WriteString("}")
	t2.WriteString("order:{")
	t2.WriteString(id)
	t2.WriteString("}")
	rdb.MGet(ctx, t1.String(), t2.String())                                                                                           // one tag
	rdb.MGet(ctx, string(strconv.AppendInt([]byte("hold:"), a, 10)), string(strconv.AppendInt([]byte("hold:"), b, 10)))               // want `MGet keys "hold:<a>" and "hold:<b>" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	rdb.MGet(ctx, string(strconv.AppendInt([]byte("hold:{"), a, 10))+"}:x", string(strconv.AppendInt([]byte("hold:{"), a, 10))+"}:y") // one tag
	rdb.MGet(ctx, string(append([]byte("hold:"), id...)), "hold:"+id)                                                                 // one key
}

// A type's String (or Error) method is what %v and %s print.
type orderRef int64

func (o orderRef) String() string { return "o" + strconv.FormatInt(int64(o), 10) } // want String:`key "o"\+%d\(p1\)`

type tenantRef string

func (t tenantRef) String() string { return "{" + string(t) + "}" } // want String:`key "\{"\+p1\+"\}"`

func (o orderRef) Key() string { return fmt.Sprintf("order:%d", int64(o)) } // want Key:`key "order:"\+%d\(p1\)`

func stringers(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, o, p orderRef, t tenantRef) {
	rdb.MGet(ctx, fmt.Sprintf("order:%v:a", o), fmt.Sprintf("order:%s:b", o))                                         // want `MGet keys "order:o<o>:a" and "order:o<o>:b" are on different hash slots for every value of o`
	rdb.MGet(ctx, fmt.Sprintf("cfg:%v:a", t), fmt.Sprintf("cfg:%s:b", t))                                             // the String method writes the tag
	rdb.MGet(ctx, o.Key(), p.Key())                                                                                   // want `MGet keys "order:<o>" and "order:<p>" are on different hash slots for all but about 1 in 16384 pairs of different values of o and p`
	rdb.MGet(ctx, o.Key(), o.Key())                                                                                   // one key
	rc.Do(ctx, rc.B().Mget().Key(fmt.Sprintf("order:%v:a", o), fmt.Sprintf("order:%v:b", o)).Build())                 // want `MGET keys "order:o<o>:a" and "order:o<o>:b" are on different hash slots for every value of o`
	rc.Do(ctx, rc.B().Mget().Key(o.Key(), p.Key()).Build())                                                           // want `MGET keys "order:<o>" and "order:<p>" are on different hash slots`
	rc.Do(ctx, rc.B().Mget().Key(strings.ToLower("U:{"+string(t)+"}:a"), "u:{"+string(t)+"}:b").Build())              // one tag
	rc.Do(ctx, rc.B().Mget().Key("u:"+strings.ToLower(string(t))+":a", "u:"+strings.ToLower(string(t))+":b").Build()) // want `MGET keys "u:<strings.ToLower\(string\(t\)\)>:a" and "u:<strings.ToLower\(string\(t\)\)>:b" are on different hash slots`
}

// idText prints any id: through a generic parameter, %v still calls the
// id type's String method.
func idText[T any](id T) string { return fmt.Sprint(id) }

func stringersThroughGenerics(ctx context.Context, rdb *goredis.ClusterClient, o orderRef) {
	rdb.Rename(ctx, "order:"+idText(o), "archive:"+o.String())             // want `Rename keys "order:o<o>" and "archive:o<o>" are on different hash slots`
	rdb.Rename(ctx, "order:{"+idText(o)+"}", "order:{"+o.String()+"}:old") // one tag: one value, written twice
}

// %q writes a value between quotes: never the value's own text.
func quotedValues(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, id string) {
	rdb.MGet(ctx, fmt.Sprintf("ev:{%q}:a", id), fmt.Sprintf("ev:{%s}:b", id))               // want `MGet keys "ev:\{<quoted id>\}:a" and "ev:\{<id>\}:b" are on different hash slots for all but about 1 in 16384 values`
	rdb.MGet(ctx, fmt.Sprintf("ev:{%q}:a", id), fmt.Sprintf("ev:{%q}:b", id))               // one tag
	rc.Do(ctx, rc.B().Mget().Key(fmt.Sprintf("q:%q", id), fmt.Sprintf("q:%s", id)).Build()) // want `MGET keys "q:<quoted id>" and "q:<id>" are on different hash slots`
}

// A value receiver's String reads the fields of the value printed.
type boardRef struct {
	Game   string
	Region string
}

func (b boardRef) String() string { return "{" + b.Game + "}:" + b.Region } // want String:`key "\{"\+of\(p1, b.Game\)\+"\}:"\+of\(p1, b.Region\)`

func structStringers(ctx context.Context, rdb *goredis.ClusterClient, id, other boardRef) {
	rdb.Rename(ctx, "lb:{"+id.Game+"}:"+id.Region+":weekly", fmt.Sprintf("lb:%v:daily", id)) // one game's tag
	rdb.Rename(ctx, "lb:{"+other.Game+"}:weekly", fmt.Sprintf("lb:%v:daily", id))            // want `Rename keys "lb:\{<other.Game>\}:weekly" and "lb:\{<id.Game>\}:<id.Region>:daily" are on different hash slots`
}
