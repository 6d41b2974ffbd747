// Package glidecalls uses Valkey GLIDE's cluster client: its core splits
// MGET, MSET, DEL, UNLINK, EXISTS, TOUCH and WATCH per slot, and sends
// every other command to the node of its first key, where the server
// refuses keys of other slots.
package glidecalls

import (
	"context"
	"fmt"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"

	"glidecalls/glidekeys"
)

var ctx = context.Background()

func refused(c *glide.ClusterClient, id string) {
	c.Rename(ctx, "src", "dst")                                     // want `Rename keys "src" \(slot 13222\) and "dst" \(slot 9394\) are on different hash slots; the server refuses it \(CrossSlot\)`
	c.Rename(ctx, "{src}", "{src}:old")                             // one tag
	c.Migrate(ctx, "h", 6379, []string{"a", "b"}, 0, 1000)          // want `Migrate keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`
	c.Migrate(ctx, "h", 6379, []string{"{a}1", "{a}2"}, 0, 1000)    // one tag
	c.RenameNX(ctx, "user:"+id+":a", "user:"+id+":b")               // want `RenameNX keys "user:<id>:a" and "user:<id>:b" are on different hash slots`
	c.SUnion(ctx, []string{"s:1", "s:2"})                           // want `SUnion keys "s:1" \(slot \d+\) and "s:2" \(slot \d+\)`
	c.SUnionStore(ctx, "out", []string{"out"})                      // one key
	c.SUnionStore(ctx, "{u}:out", []string{"{u}:a", "{u}:b"})       // one tag
	c.SUnionStore(ctx, "out", []string{"{u}:a"})                    // want `SUnionStore keys "out" \(slot \d+\) and "\{u\}:a" \(slot \d+\)`
	c.Copy(ctx, "a", "b")                                           // want `Copy keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.SMove(ctx, "a", "b", "member")                                // want `SMove keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.PfCount(ctx, []string{"hll:1", "hll:2"})                      // want `PfCount keys "hll:1" \(slot \d+\) and "hll:2" \(slot \d+\)`
	c.PfMerge(ctx, "hll:all", []string{"hll:1"})                    // want `PfMerge keys "hll:all" \(slot \d+\) and "hll:1" \(slot \d+\)`
	c.LCS(ctx, "a", "b")                                            // want `LCS keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.SortStore(ctx, "a", "b")                                      // want `SortStore keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.GeoSearchStore(ctx, "a", "b")                                 // want `GeoSearchStore keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.FCallWithKeysAndArgs(ctx, "fn", []string{"a", "b"}, nil)      // want `FCallWithKeysAndArgs keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.FCallWithKeysAndArgs(ctx, "fn", []string{"a"}, []string{"b"}) // args are no keys
	c.MSetNX(ctx, map[string]string{"a": "1", "b": "2"})            // want `MSetNX keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.XRead(ctx, map[string]string{"s1": "0", "s2": "0"})           // want `XRead keys "s1" \(slot 15224\) and "s2" \(slot 2843\)`
	c.XRead(ctx, map[string]string{"{s}1": "0", "{s}2": "0"})
	c.BLPop(ctx, []string{"q:1", "q:2"}, 0)                         // want `BLPop keys "q:1" \(slot \d+\) and "q:2" \(slot \d+\)`
	c.SInter(ctx, []string{fmt.Sprintf("tags:%s", id), "tags:all"}) // want `SInter keys "tags:<id>" and "tags:all" are on different hash slots`
}

// The core splits these per slot and merges the replies: no CrossSlot.
func split(c *glide.ClusterClient) {
	c.MGet(ctx, []string{"a", "b"})
	c.Exists(ctx, []string{"a", "b"})
	c.Touch(ctx, []string{"a", "b"})
	c.Watch(ctx, []string{"a", "b"})
	c.Del(ctx, []string{"a", "b"})
	c.Unlink(ctx, []string{"a", "b"})
	c.MSet(ctx, map[string]string{"a": "1", "b": "2"})
}

// A client held as GLIDE's cluster interface is a cluster client.
type store struct {
	c interfaces.GlideClusterClientCommands
}

func (s *store) move() {
	s.c.Rename(ctx, "src", "dst") // want `Rename keys "src" \(slot 13222\) and "dst" \(slot 9394\)`
	s.c.MGet(ctx, []string{"a", "b"})
}

// GLIDE's standalone client talks to one server: not checked.
func standalone(c *glide.Client) {
	c.Rename(ctx, "src", "dst")
}

func scripts(c *glide.ClusterClient) {
	s := options.NewScript("return 1")
	c.InvokeScriptWithOptions(ctx, *s, *options.NewScriptOptions().WithKeys([]string{"a", "b"})) // want `InvokeScriptWithOptions keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.InvokeScriptWithOptions(ctx, *s, options.ScriptOptions{Keys: []string{"a", "b"}})          // want `InvokeScriptWithOptions keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.InvokeScriptWithOptions(ctx, *s, options.ScriptOptions{Keys: []string{"{a}1", "{a}2"}, Args: []string{"b"}})
}

// A split write does not fail but is not atomic: reported where it writes
// one entity's keys, not where it writes several entities' together.
func splitWrites(c *glide.ClusterClient, id, other string, ids []string) {
	c.Del(ctx, []string{"user:" + id + ":profile", "user:" + id + ":settings"}) // want `Del keys "user:<id>:profile" and "user:<id>:settings" are on different hash slots .*; GLIDE's cluster client splits it by slot, so it does not fail but is not atomic; if the write must be atomic, make id their hash tag, as in "user:\{<id>\}:profile"$`
	c.Del(ctx, []string{"user:{" + id + "}:profile", "user:{" + id + "}:settings"})
	c.MSet(ctx, map[string]string{"cart:" + id + ":items": "[]", "cart:" + id + ":total": "0"}) // want `MSet keys "cart:<id>:items" and "cart:<id>:total" are on different hash slots .*not atomic`
	c.Unlink(ctx, []string{"session:" + id, "session:" + other})                                // two entities
	var keys []string
	for _, u := range ids {
		keys = append(keys, "session:"+u)
	}
	c.Del(ctx, keys)                                                // one key per entity
	c.Unlink(ctx, []string{"cache:a", "cache:b"})                   // constants: no entity
	c.MGet(ctx, []string{"user:" + id + ":a", "user:" + id + ":b"}) // a split read is merged: fine
}

// An atomic batch runs on one node: its commands' keys must share a slot,
// and a command the client would split fails there.
func batches(c *glide.ClusterClient, id string) {
	tx := pipeline.NewClusterBatch(true)
	tx.Set("user:"+id+":a", "1")
	tx.Incr("user:" + id + ":b") // want `ClusterBatch keys "user:<id>:a" \(Set\) and "user:<id>:b" \(Incr\) are on different hash slots .*; GLIDE refuses the atomic batch before sending it \(Received crossed slots in pipeline- CrossSlot\)`
	c.Exec(ctx, *tx, true)

	chained := pipeline.NewClusterBatch(true)
	chained.Set("{u}:a", "1").Set("b", "2") // want `ClusterBatch keys "\{u\}:a" \(slot 11826, Set\) and "b" \(slot 3300, Set\) are on different hash slots`
	c.Exec(ctx, *chained, true)

	split := pipeline.NewClusterBatch(true)
	split.MGet([]string{"a", "b"}) // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; the server refuses it \(CrossSlot\); send it outside the atomic batch, where GLIDE splits it per slot, or give the keys one hash tag`
	c.Exec(ctx, *split, true)

	tagged := pipeline.NewClusterBatch(true)
	tagged.Set("user:{"+id+"}:a", "1").Incr("user:{" + id + "}:b").MGet([]string{"user:{" + id + "}:a", "user:{" + id + "}:b"})
	c.Exec(ctx, *tagged, true)

	pipe := pipeline.NewClusterBatch(false) // each command routed on its own
	pipe.Set("a", "1").Set("b", "2").MGet([]string{"a", "b"})
	pipe.SUnion([]string{"a", "b"}) // want `SUnion keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots; the server refuses it`
	c.Exec(ctx, *pipe, false)
}

// GLIDE sends WATCH to the watched keys' node and an atomic batch to its
// own: a watch of another slot may watch nothing.
func watched(c *glide.ClusterClient, id string) {
	c.Watch(ctx, []string{"stock:" + id})
	tx := pipeline.NewClusterBatch(true)
	tx.Set("order:"+id, "1") // want `Watch keys "stock:<id>" and Set key "order:<id>" are on different hash slots .*; where the slots are on different nodes, GLIDE's WATCH is silently ignored and the batch commits over a changed key; make id their hash tag, as in "stock:\{<id>\}"$`
	c.Exec(ctx, *tx, true)

	c.Watch(ctx, []string{"stock:{" + id + "}"})
	same := pipeline.NewClusterBatch(true)
	same.Set("order:{"+id+"}", "1")
	c.Exec(ctx, *same, true)
}

// Raw commands are read through the command table and routed by name, as
// the core routes them.
func custom(c *glide.ClusterClient, id string) {
	c.CustomCommand(ctx, []string{"RENAME", "src", "dst"})                          // want `RENAME keys "src" \(slot 13222\) and "dst" \(slot 9394\) are on different hash slots; the server refuses it \(CrossSlot\)`
	c.CustomCommand(ctx, []string{"SUNIONSTORE", "{u}:out", "{u}:a", "b"})          // want `SUNIONSTORE keys "\{u\}:out" \(slot \d+\) and "b" \(slot 3300\)`
	c.CustomCommand(ctx, []string{"MGET", "a", "b"})                                // split
	c.CustomCommand(ctx, []string{"DEL", "a", "b"})                                 // split, constants: no entity
	c.CustomCommand(ctx, []string{"DEL", "user:" + id + ":a", "user:" + id + ":b"}) // want `DEL keys "user:<id>:a" and "user:<id>:b" are on different hash slots .*not atomic`
	c.CustomCommand(ctx, []string{"EVAL", "return 1", "2", "a", "b"})               // want `EVAL keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}

// Keyspace-wide commands: GLIDE sends them to every primary, but for a raw
// SCAN and anything in an atomic batch.
func keyspace(c *glide.ClusterClient) {
	c.FlushDB(ctx)
	c.FlushAll(ctx)
	c.RandomKey(ctx)
	c.CustomCommand(ctx, []string{"KEYS", "*"})
	c.CustomCommand(ctx, []string{"FLUSHDB"})
	c.CustomCommand(ctx, []string{"SCRIPT", "LOAD", "return 1"})
	c.CustomCommand(ctx, []string{"SCAN", "0"}) // want `SCAN on a cluster client runs on one node and sees only the keys of that node's slots; walk every slot with the cluster client's Scan from models.NewClusterScanCursor\(\)`
	tx := pipeline.NewClusterBatch(true)
	tx.FlushDB()                            // want `FLUSHDB on a cluster client runs on one node and clears only the keys of that node's slots; send it outside the atomic batch, where GLIDE runs it on every primary`
	tx.CustomCommand([]string{"KEYS", "*"}) // want `KEYS on a cluster client runs on one node .*; send it outside the atomic batch`
	tx.DBSize()                             // want `DBSIZE on a cluster client runs on one node and counts only the keys of that node's slots; send it outside the atomic batch`
	c.Exec(ctx, *tx, true)
	pipe := pipeline.NewClusterBatch(false)
	pipe.FlushDB()
	pipe.DBSize()
	c.Exec(ctx, *pipe, true)
}

// A cluster has database 0 only.
func databases(c *glide.ClusterClient) {
	c.Select(ctx, 2) // want `SELECT 2 needs a database other than 0, which a cluster does not have`
	c.Select(ctx, 0)
	c.Move(ctx, "k", 1) // want `MOVE needs a database other than 0`
}

// A cluster client configured for another database fails to connect; a
// standalone client's is one server's (checked with -include-single-node).
func configured() {
	glide.NewClusterClient(config.NewClusterClientConfiguration().WithAddress(&config.NodeAddress{Host: "localhost", Port: 7000}).WithDatabaseId(2)) // want `WithDatabaseId 2 needs a database other than 0, which a cluster does not have`
	glide.NewClusterClient(config.NewClusterClientConfiguration().WithDatabaseId(0))
	glide.NewClient(config.NewClientConfiguration().WithDatabaseId(2))
}

// SORT's BY and GET patterns read keys on any slot: refused by a cluster.
func sorted(c *glide.ClusterClient, id string) {
	c.SortWithOptions(ctx, "ids", *options.NewSortOptions().SetByPattern("w_*")) // want `SORT BY "w_\*" reads keys on any slot, which a cluster refuses`
	c.SortWithOptions(ctx, "ids", *options.NewSortOptions().SetIsAlpha(true))
	c.SortStoreWithOptions(ctx, "{s}ids", "{s}out", *options.NewSortOptions().SetIsAlpha(true).AddGetPattern("o_*")) // want `SORT GET "o_\*" reads keys on any slot`
	c.SortWithOptions(ctx, "{s}ids", *options.NewSortOptions().SetByPattern("{s}w_*").AddGetPattern("#"))            // on the key's slot: accepted from Valkey 8.0 (TestGlideTargets)
	c.SortWithOptions(ctx, "{s}ids", *options.NewSortOptions().SetByPattern("{t}w_*"))                               // want `SORT BY "{t}w_\*" reads keys on slot \d+, not the sorted key "{s}ids"'s slot \d+`
}

// A script's Lua is read as for the other clients: a key it builds must be
// on its declared keys' slot.
func luaKeys(c *glide.ClusterClient) {
	s := options.NewScript("return redis.call('INCR', KEYS[1] .. ':count')") // want `InvokeScriptWithOptions script's INCR key "user:1:count" \(slot 11676\) and the declared key "user:1" \(slot 10778\) are on different hash slots; on a cluster the script fails where they are on different nodes \(non local key\)`
	c.InvokeScriptWithOptions(ctx, *s, options.ScriptOptions{Keys: []string{"user:1"}})
	c.InvokeScriptWithOptions(ctx, *s, options.ScriptOptions{Keys: []string{"user:{1}"}})
}

// Keyspace notifications: each node publishes its own keys' events, and a
// cluster client subscribes on one node; GLIDE sends CONFIG SET to every
// node.
func notifications(c *glide.ClusterClient) {
	c.PSubscribe(ctx, []string{"__keyspace@0__:*"}, 1000) // want `PSUBSCRIBE "__keyspace@0__:\*" on a cluster client listens on one node, .*; run it with a standalone client \(glide.NewClient\) on each primary`
	c.PSubscribe(ctx, []string{"news.*"}, 1000)
	c.SSubscribe(ctx, []string{"a", "b"}, 1000)
	c.CustomCommand(ctx, []string{"CONFIG", "SET", "notify-keyspace-events", "KEA"})
	cfg := config.NewClusterSubscriptionConfig(). // want `PSUBSCRIBE "__keyevent@0__:expired" on a cluster client listens on one node`
							WithSubscription(config.PatternClusterChannelMode, "__keyevent@0__:expired")
	glide.NewClusterClient(config.NewClusterClientConfiguration().WithSubscriptionConfig(cfg))
	config.NewClusterSubscriptionConfig().WithSubscription(config.ShardedClusterChannelMode, "__keyevent@0__:expired")
}

func moreKeys(c *glide.ClusterClient) {
	c.CopyWithOptions(ctx, "{k}a", "{k}b", *options.NewCopyOptions().SetDBDestination(1)) // want `COPY \.\.\. DB 1 needs a database other than 0, which a cluster does not have \(ERR Copying to another database is not allowed in cluster mode\)`
	c.CopyWithOptions(ctx, "{k}a", "{k}b", *options.NewCopyOptions().SetReplace())
	c.ZUnion(ctx, options.KeyArray{Keys: []string{"z:1", "z:2"}})        // want `ZUnion keys "z:1" \(slot \d+\) and "z:2" \(slot \d+\)`
	c.ZUnionStore(ctx, "z:out", options.KeyArray{Keys: []string{"z:1"}}) // want `ZUnionStore keys "z:out" \(slot \d+\) and "z:1" \(slot \d+\)`
	c.ZUnionStore(ctx, "{z}out", options.KeyArray{Keys: []string{"{z}1", "{z}2"}})
}

// A struct literal's slice built in a loop: a family of keys.
func keysBuiltInLoop(c *glide.ClusterClient, weeks []string) {
	src := make([]string, 0, len(weeks))
	for _, w := range weeks {
		src = append(src, "board:{"+w+"}")
	}
	c.ZUnionStore(ctx, "board:month", options.KeyArray{Keys: src}) // want `ZUnionStore keys "board:month" and "board:\{<weeks\[i\]>\}" are on different hash slots`
	tagged := make([]string, 0, len(weeks))
	for _, w := range weeks {
		tagged = append(tagged, "{board}:"+w)
	}
	c.ZUnionStore(ctx, "{board}:month", options.KeyArray{Keys: tagged})

	var ka options.KeyArray // its field appended to in the loop
	for _, w := range weeks {
		ka.Keys = append(ka.Keys, "board:"+w)
	}
	c.ZUnion(ctx, ka) // want `ZUnion keys "board:<weeks\[i\]>" for two different elements of weeks are on different hash slots`
	var tka options.KeyArray
	for _, w := range weeks {
		tka.Keys = append(tka.Keys, "{board}:"+w)
	}
	c.ZUnion(ctx, tka)
}

// WAIT takes numbers, never keys: nothing to compare in the batch.
func waitInBatch(c *glide.ClusterClient) {
	tx := pipeline.NewClusterBatch(true)
	tx.Incr("{acct}:1")
	tx.CustomCommand([]string{"WAIT", "1", "0"})
	tx.Incr("{acct}:2")
	c.Exec(ctx, *tx, true)
}

// Keys from parameters are judged where they are built, and a wrapper's
// callers as if they called the client.
func transfer(c *glide.ClusterClient, from, to string) {
	tx := pipeline.NewClusterBatch(true)
	tx.Incr("acct:" + from)
	tx.Incr("acct:" + to) // want `ClusterBatch keys "acct:<from>" \(Incr\) and "acct:<to>" \(Incr\) are on different hash slots`
	c.Exec(ctx, *tx, true)
}

func moveKey(c *glide.ClusterClient, from, to string) {
	c.Rename(ctx, from, to)
}

func callers(c *glide.ClusterClient, id string) {
	moveKey(c, "order:"+id+":draft", "order:"+id+":placed") // want `Rename keys "order:<id>:draft" and "order:<id>:placed" are on different hash slots .* in moveKey`
	moveKey(c, "order:{"+id+"}:draft", "order:{"+id+"}:placed")
}

// A key a script takes from ARGV holds the call's argument.
func argvKeys(c *glide.ClusterClient) {
	literal := options.NewScript("return redis.call('INCR', ARGV[1])") // want `InvokeScriptWithOptions script's INCR key "q:b" \(slot 2434\) and the declared key "\{q\}:a" \(slot 11958\) are on different hash slots`
	c.InvokeScriptWithOptions(ctx, *literal, options.ScriptOptions{Keys: []string{"{q}:a"}, Args: []string{"q:b"}})
	chained := options.NewScript("return redis.call('DECR', ARGV[1])") // want `InvokeScriptWithOptions script's DECR key "q:b" \(slot 2434\) and the declared key "\{q\}:a" \(slot 11958\) are on different hash slots`
	c.InvokeScriptWithOptions(ctx, *chained, *options.NewScriptOptions().WithKeys([]string{"{q}:a"}).WithArgs([]string{"q:b"}))
	tagged := options.NewScript("return redis.call('GET', ARGV[1])")
	c.InvokeScriptWithOptions(ctx, *tagged, options.ScriptOptions{Keys: []string{"{q}:a"}, Args: []string{"{q}:b"}})
}

// The same rules however the keys are written: a slice made and filled by
// index, keys from another package's builders, a wrapper in another
// package.
func otherWays(c *glide.ClusterClient, user string) {
	keys := make([]string, 2)
	keys[0] = "s:1"
	keys[1] = "s:2"
	c.SUnion(ctx, keys) // want `SUnion keys "s:1" \(slot \d+\) and "s:2" \(slot \d+\)`
	tagged := make([]string, 2)
	tagged[0] = "{s}1"
	tagged[1] = "{s}2"
	c.SUnion(ctx, tagged)
	c.Rename(ctx, glidekeys.Cart(user), glidekeys.Order(user)) // want `Rename keys "cart:<user>" and "order:<user>" are on different hash slots`
	glidekeys.Move(ctx, c, "src", "dst")                       // want `Rename keys "src" \(slot 13222\) and "dst" \(slot 9394\) are on different hash slots in glidekeys.Move \(glidekeys.go:16\); give both keys one hash tag`
	glidekeys.Move(ctx, c, "{src}", "{src}:old")
}
