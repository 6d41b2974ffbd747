package a

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

const userPrefix = "user:"

type tenant string

const acme tenant = "acme"

func variadic(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "user:1:a", "user:2:a") // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")
	rdb.Del(ctx, "a")
	rdb.Del(ctx, "a", "{a}:x", "b")                 // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`
	rdb.Exists(ctx, userPrefix+"1", userPrefix+"2") // want `Exists keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\)`
	rdb.Unlink(ctx, string(acme)+":{1}", "other:{1}")
}

func fixedKeys(ctx context.Context, rdb redis.UniversalClient) {
	rdb.Rename(ctx, "src", "dst") // want `Rename keys "src" \(slot 13222\) and "dst" \(slot 9394\) are on different hash slots`
	rdb.Rename(ctx, "{src}", "{src}.bak")
	rdb.Copy(ctx, "k1", "k2", 0, false)     // want `Copy keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	rdb.SUnionStore(ctx, "dst", "s1", "s2") // want `SUnionStore keys "dst" \(slot 9394\) and "s1" \(slot 15224\)`
	rdb.SInterCard(ctx, 10, "s1", "s2")     // want `SInterCard keys "s1" \(slot 15224\) and "s2" \(slot 2843\)`
	rdb.BLPop(ctx, 0, "{q}:a", "{q}:b")
	rdb.JSONMGet(ctx, "$", "p:1", "p:2") // want `JSONMGet keys "p:1" \(slot 5156\) and "p:2" \(slot 9287\)`
}

func sprintfKeys(ctx context.Context, rdb redis.Cmdable, id int, name string) {
	rdb.MGet(ctx, fmt.Sprintf("user:{%d}:a", id), fmt.Sprintf("user:{%d}:b", id))
	rdb.MGet(ctx, fmt.Sprintf("user:%d:a", 1), fmt.Sprintf("user:%d:a", 2)) // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
	rdb.MGet(ctx, fmt.Sprintf("user:{%[1]d}:a:%[1]d", id), fmt.Sprintf("user:{%d}:b", id))
	// The same tag through different builders: Sprintf and concatenation.
	rdb.MGet(ctx, fmt.Sprintf("user:{%s}:a", name), "user:{"+name+"}:b")
	// Different unknown values: nothing can be proved.
	rdb.MGet(ctx, fmt.Sprintf("user:{%d}:a", id), fmt.Sprintf("user:{%d}:b", id+1)) // want `MGet keys "user:\{<id>\}:a" and "user:\{<id \+ 1>\}:b" are on different hash slots for all but about 1 in 16384 values of id and id \+ 1`
	// A name may hold braces: which tag counts is unknown.
	rdb.MGet(ctx, name+":{1}:a", name+":{2}:a")
	// Digits cannot hold braces, so the tag is known.
	rdb.MGet(ctx, strconv.Itoa(id)+":{1}:a", strconv.Itoa(id)+":{2}:a") // want `MGet keys "<strconv.Itoa\(id\)>:\{1\}:a" \(slot 9842\) and "<strconv.Itoa\(id\)>:\{2\}:a" \(slot 5649\)`
	rdb.MGet(ctx, fmt.Sprintf("%d:{1}:a", id), fmt.Sprintf("%05d:{1}:b", id))
	rdb.MGet(ctx, strings.Join([]string{"user", "1", "a"}, ":"), "user:2:a") // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
	// An empty unknown tag would hash the whole key: unknown.
	rdb.MGet(ctx, "{"+name+"}", "{"+name+"}")
}

func phis(ctx context.Context, rdb *redis.ClusterClient, cond bool) {
	other := "user:2:a"
	if cond {
		other = "user:1:b"
	}
	rdb.MGet(ctx, "user:1:a", other) // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
	same := "user:{1}:b"
	if cond {
		same = "user:{2}:b"
	}
	rdb.MGet(ctx, "user:{1}:a", same) // one branch shares the slot: silent
}

func slices(ctx context.Context, rdb *redis.ClusterClient, extra []string) {
	keys := []string{"x:1", "x:2"}
	rdb.Del(ctx, keys...) // want `Del keys "x:1" \(slot 15749\) and "x:2" \(slot 3558\)`
	rdb.Del(ctx, extra...)
	mutated := []string{"{x}1", "{x}2"}
	mutated[0] = "x:1"
	rdb.Del(ctx, mutated...)
	rdb.Eval(ctx, "return 1", []string{"k1", "k2"}) // want `Eval keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	rdb.FCall(ctx, "f", []string{"{k}1", "{k}2"}, 1)
	redis.NewScript("return 1").Run(ctx, rdb, []string{"g1", "g2"}) // want `Run keys "g1" \(slot 13519\) and "g2" \(slot 1196\)`
}

func pairsAndStructs(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MSet(ctx, "a", 1, "b", 2) // want `MSet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	rdb.MSet(ctx, "{a}1", "b", "{a}2", "c")
	rdb.MSetNX(ctx, map[string]interface{}{"a": 1, "b": 2}) // want `MSetNX keys "[ab]" \(slot \d+\) and "[ab]" \(slot \d+\) are on different hash slots`
	rdb.MSet(ctx, map[string]string{"{u}a": "1", "{u}b": "2"})
	rdb.MSet(ctx, profile{Name: "n", Email: "e"}) // want `MSet keys "name" \(slot 5798\) and "email" \(slot 10780\)`
	rdb.MSet(ctx, &taggedProfile{Name: "n", Email: "e"})
	rdb.MSet(ctx, &optional{Name: "n"})
	rdb.ZInterStore(ctx, "dst", &redis.ZStore{Keys: []string{"{dst}a", "{dst}b"}}) // "dst" hashes as {dst}: silent
	rdb.ZInterStore(ctx, "dst", &redis.ZStore{Keys: []string{"{dst}a", "b"}})      // want `ZInterStore keys "dst" \(slot 9394\) and "b" \(slot 3300\)`
	rdb.ZUnion(ctx, redis.ZStore{Keys: []string{"s1", "s2"}})                      // want `ZUnion keys "s1" \(slot 15224\) and "s2" \(slot 2843\)`
	rdb.LCS(ctx, &redis.LCSQuery{Key1: "k1", Key2: "k2"})                          // want `LCS keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"s1", "s2", "0", "0"}})      // want `XRead keys "s1" \(slot 15224\) and "s2" \(slot 2843\)`
	rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{"{s}1", "{s}2", "0", "0"}})
}

type profile struct {
	Name  string `redis:"name"`
	Email string `redis:"email"`
}

type taggedProfile struct {
	Name  string `redis:"{p}name"`
	Email string `redis:"{p}email"`
	skip  string `redis:"other"`
}

// An omitempty field may be left out, so only one key is certain.
type optional struct {
	Name  string `redis:"name"`
	Email string `redis:"email,omitempty"`
}

func transactions(ctx context.Context, rdb *redis.ClusterClient, tx *redis.Tx, u redis.UniversalClient) {
	rdb.Watch(ctx, func(*redis.Tx) error { return nil }, "a", "b") // want `Watch keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	tx.Watch(ctx, "a", "b")                                        // want `Watch keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	u.Watch(ctx, func(*redis.Tx) error { return nil }, "{a}", "{a}:b")
	pipe := rdb.TxPipeline()
	pipe.MGet(ctx, "a", "b")                              // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	pipe.Do(ctx, "mget", "a", "b")                        // want `Do keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	rdb.Do(ctx, "EVAL", "return 1", 2, "k1", "k2", "arg") // want `Do keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	rdb.Do(ctx, "EVAL", "return 1", 1, "k1", "k2")
	rdb.Do(ctx, "MSETEX", 2, "a", 1, "b", 2, "EX", 10)   // want `Do keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	rdb.Do(ctx, "MSETEX", 2, "{a}1", 1, "{a}2", 2, "NX") // one tag: Redis 8.4 and Valkey 9.1's MSETEX
	rdb.Do(ctx, "BITOP", "DIFF", "{b}d", "{b}x", "y")    // want `Do keys "{b}d" \(slot 3300\) and "y" \(slot 12222\)`
	rdb.Do(ctx, "HGETDEL", "h{", "FIELDS", 1, "f")       // want `key "h{" has a '{' with no '}' after it`
	rdb.Do(ctx, "GET", "a")
}

func singleNode(ctx context.Context, c *redis.Client, conn *redis.Conn) {
	c.MGet(ctx, "a", "b")
	conn.Del(ctx, "a", "b")
	c.Get(ctx, "user:{}:a")
}

func tags(ctx context.Context, rdb *redis.ClusterClient, name string) {
	rdb.Get(ctx, "user:{}:a")   // want `Get key "user:\{\}:a" has an empty hash tag \{\}, so the whole key is hashed`
	rdb.Get(ctx, "{a}:{b}")     // want `Get key "\{a\}:\{b\}" has a second hash tag after \{a\}; only the first one counts`
	rdb.Get(ctx, "foo{{bar}}z") // want `Get key "foo\{\{bar\}\}z" has a '\{' inside its hash tag: the server hashes "\{bar", from the first '\{' to the first '\}'`
	rdb.Get(ctx, "user:{1")     // want `Get key "user:\{1" has a '\{' with no '\}' after it, so the whole key is hashed`
	rdb.Get(ctx, "user:{1}:a")
	rdb.Get(ctx, "{"+name)              // want `Get key "\{<name>" has a '\{' with no '\}' after it, so the whole key is hashed \(assuming name holds no brace\)`
	rdb.Get(ctx, "user:{"+name+"}:{x}") // want `Get key "user:\{<name>\}:\{x\}" has a second hash tag after \{<name>\}; only the first one counts \(assuming name holds no brace\)`
	rdb.Get(ctx, name+"{")              // name may close it before: silent
	rdb.Set(ctx, "cfg:{}", 1, 0)        // want `Set key "cfg:\{\}" has an empty hash tag`
	rdb.Del(ctx, "{a}:{b}")             // want `Del key "\{a\}:\{b\}" has a second hash tag`
}

// The remedy follows the command a raw call sends: keys that do not depend
// on each other can be sent one call per slot; a rename's cannot.
func remedyByCommand(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Do(ctx, "EXISTS", "stock:1", "stock:2")           // want `; send one call per slot, since one hash tag for every such key would put them all on one slot$`
	rdb.Do(ctx, "RENAME", "report:today", "report:older") // want `; give both keys one hash tag, such as \{report\}$`
	rdb.Rename(ctx, "report:1", "report:1:archived")      // want `; give both keys one hash tag, such as \{report:1\}$`
	rdb.MGet(ctx, "cart:1:lines", "cart:1:sum")           // want `; give them the hash tag \{cart:1\}, as in "\{cart:1\}:lines"$`
}

// A struct literal's slice built in a loop: a family of keys.
func storeOfFamily(ctx context.Context, rdb *redis.ClusterClient, week []string) {
	var days []string
	for _, d := range week {
		days = append(days, "views:{"+d+"}")
	}
	rdb.ZInterStore(ctx, "views:week", &redis.ZStore{Keys: days}) // want `ZInterStore keys "views:week" and "views:\{<week\[i\]>\}" are on different hash slots`
	var tagged []string
	for _, d := range week {
		tagged = append(tagged, "{views}:"+d)
	}
	rdb.ZInterStore(ctx, "{views}:week", &redis.ZStore{Keys: tagged})
}
