// Command glide runs commands through Valkey GLIDE's cluster client on a
// three-master cluster. Functions named bad* are ones crossslot must
// report: the server refuses them (CrossSlot, or a database other than 0),
// GLIDE refuses the atomic batch before sending it, or GLIDE silently
// ignores a WATCH on another node (the scenario then says it committed over
// a changed key). good* ones it must leave alone, and they succeed: the
// commands GLIDE splits per slot among them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/constants"
	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

type clients struct {
	c     *glide.ClusterClient
	other *glide.ClusterClient // another client, which changes a watched key
	node  config.NodeAddress   // the cluster node given, for clients of their own
}

func badRename(ctx context.Context, c clients) error {
	if _, err := c.c.Set(ctx, "src", "v"); err != nil {
		return err
	}
	_, err := c.c.Rename(ctx, "src", "dst")
	return err
}

func goodRename(ctx context.Context, c clients) error {
	if _, err := c.c.Set(ctx, "{src}", "v"); err != nil {
		return err
	}
	_, err := c.c.Rename(ctx, "{src}", "{src}:old")
	return err
}

func badSUnion(ctx context.Context, c clients) error {
	_, err := c.c.SUnion(ctx, []string{"s:1", "s:2"})
	return err
}

func goodSUnion(ctx context.Context, c clients) error {
	_, err := c.c.SUnion(ctx, []string{"{s}1", "{s}2"})
	return err
}

func badMSetNX(ctx context.Context, c clients) error {
	_, err := c.c.MSetNX(ctx, map[string]string{"nx:a": "1", "nx:b": "2"})
	return err
}

func badPfCount(ctx context.Context, c clients) error {
	_, err := c.c.PfCount(ctx, []string{"hll:1", "hll:2"})
	return err
}

func badSortStore(ctx context.Context, c clients) error {
	_, err := c.c.SortStore(ctx, "a", "b")
	return err
}

func badCustomRename(ctx context.Context, c clients) error {
	if _, err := c.c.Set(ctx, "src", "v"); err != nil {
		return err
	}
	_, err := c.c.CustomCommand(ctx, []string{"RENAME", "src", "dst"})
	return err
}

// GLIDE splits these per slot: no error.
func goodSplitMGet(ctx context.Context, c clients) error {
	_, err := c.c.MGet(ctx, []string{"a", "b", "c"})
	return err
}

func goodSplitDel(ctx context.Context, c clients) error {
	_, err := c.c.Del(ctx, []string{"cache:a", "cache:b"})
	return err
}

func goodSplitMSet(ctx context.Context, c clients) error {
	_, err := c.c.MSet(ctx, map[string]string{"a": "1", "b": "2"})
	return err
}

func goodCustomMGet(ctx context.Context, c clients) error {
	_, err := c.c.CustomCommand(ctx, []string{"MGET", "a", "b"})
	return err
}

func badAtomicBatch(ctx context.Context, c clients) error {
	tx := pipeline.NewClusterBatch(true)
	tx.Set("a", "1")
	tx.Set("b", "2")
	_, err := c.c.Exec(ctx, *tx, true)
	return err
}

func badAtomicBatchMGet(ctx context.Context, c clients) error {
	tx := pipeline.NewClusterBatch(true)
	tx.MGet([]string{"a", "b"})
	_, err := c.c.Exec(ctx, *tx, true)
	return err
}

func goodAtomicBatch(ctx context.Context, c clients) error {
	tx := pipeline.NewClusterBatch(true)
	tx.Set("{u}:a", "1").Incr("{u}:n").MGet([]string{"{u}:a", "{u}:n"})
	_, err := c.c.Exec(ctx, *tx, true)
	return err
}

func goodPipeline(ctx context.Context, c clients) error {
	p := pipeline.NewClusterBatch(false)
	p.Set("a", "1").Set("b", "2").MGet([]string{"a", "b"})
	_, err := c.c.Exec(ctx, *p, true)
	return err
}

// errCommitted says a transaction committed although a key it watched
// changed: GLIDE sent the WATCH to another node than the transaction.
var errCommitted = errors.New("committed over a changed watched key")

func badWatch(ctx context.Context, c clients) error {
	if _, err := c.c.Watch(ctx, []string{"{b}watched"}); err != nil { // slot 3300
		return err
	}
	// The EXEC on the other node leaves this WATCH in place on the watched
	// key's node, where it would abort the next transaction sent there.
	defer c.c.Unwatch(ctx)
	if _, err := c.other.Set(ctx, "{b}watched", "changed"); err != nil {
		return err
	}
	tx := pipeline.NewClusterBatch(true)
	tx.Set("{a}written", "1") // slot 15495, on another master
	res, err := c.c.Exec(ctx, *tx, true)
	if err == nil && res != nil {
		return errCommitted
	}
	return err
}

func goodWatch(ctx context.Context, c clients) error {
	if _, err := c.c.Watch(ctx, []string{"{b}watched"}); err != nil {
		return err
	}
	tx := pipeline.NewClusterBatch(true)
	tx.Set("{b}written", "1")
	res, err := c.c.Exec(ctx, *tx, true)
	if err == nil && res == nil {
		return errors.New("aborted although nothing changed the watched key")
	}
	return err
}

func badSelect(ctx context.Context, c clients) error {
	_, err := c.c.Select(ctx, 1)
	return err
}

func goodSelect(ctx context.Context, c clients) error {
	_, err := c.c.Select(ctx, 0)
	return err
}

func badSMove(ctx context.Context, c clients) error {
	_, err := c.c.SMove(ctx, "set:1", "set:2", "m")
	return err
}

func badCopy(ctx context.Context, c clients) error {
	_, err := c.c.Copy(ctx, "a", "b")
	return err
}

func badLMove(ctx context.Context, c clients) error {
	_, err := c.c.LMove(ctx, "list:1", "list:2", constants.Left, constants.Right)
	return err
}

func goodLMove(ctx context.Context, c clients) error {
	_, err := c.c.LMove(ctx, "{list}1", "{list}2", constants.Left, constants.Right)
	return err
}

func badBLPop(ctx context.Context, c clients) error {
	_, err := c.c.BLPop(ctx, []string{"q:1", "q:2"}, 10*time.Millisecond)
	return err
}

func badXRead(ctx context.Context, c clients) error {
	_, err := c.c.XRead(ctx, map[string]string{"s1": "0", "s2": "0"})
	return err
}

func goodXRead(ctx context.Context, c clients) error {
	_, err := c.c.XRead(ctx, map[string]string{"{s}1": "0", "{s}2": "0"})
	return err
}

func badLCS(ctx context.Context, c clients) error {
	_, err := c.c.LCS(ctx, "a", "b")
	return err
}

func badZUnionStore(ctx context.Context, c clients) error {
	_, err := c.c.ZUnionStore(ctx, "z:out", options.KeyArray{Keys: []string{"z:1", "z:2"}})
	return err
}

func goodZUnionStore(ctx context.Context, c clients) error {
	_, err := c.c.ZUnionStore(ctx, "{z}out", options.KeyArray{Keys: []string{"{z}1", "{z}2"}})
	return err
}

func badInvokeScript(ctx context.Context, c clients) error {
	s := options.NewScript("return 1")
	defer s.Close()
	_, err := c.c.InvokeScriptWithOptions(ctx, *s, *options.NewScriptOptions().WithKeys([]string{"a", "b"}))
	return err
}

func goodInvokeScript(ctx context.Context, c clients) error {
	s := options.NewScript("return 1")
	defer s.Close()
	_, err := c.c.InvokeScriptWithOptions(ctx, *s, *options.NewScriptOptions().WithKeys([]string{"{a}1", "{a}2"}))
	return err
}

func badFCall(ctx context.Context, c clients) error {
	_, err := c.c.FCallWithKeysAndArgs(ctx, "nosuchfunction", []string{"a", "b"}, nil)
	return err
}

func badMove(ctx context.Context, c clients) error {
	_, err := c.c.Move(ctx, "a", 1)
	return err
}

func badCopyToDatabase(ctx context.Context, c clients) error {
	_, err := c.c.CopyWithOptions(ctx, "{k}a", "{k}b", *options.NewCopyOptions().SetDBDestination(1))
	return err
}

func badSortBy(ctx context.Context, c clients) error {
	_, err := c.c.SortWithOptions(ctx, "{s}ids", *options.NewSortOptions().SetByPattern("{s}w_*"))
	return err
}

// errOneNode says a keyspace-wide command, or a subscription, saw one
// node's keys only.
var errOneNode = errors.New("saw one node's keys only")

func badRawScan(ctx context.Context, c clients) error {
	for _, k := range []string{"{a}scanned", "{b}scanned", "{c}scanned"} { // slots 15495, 3300, 7365: three masters
		if _, err := c.c.Set(ctx, k, "1"); err != nil {
			return err
		}
	}
	res, err := c.c.CustomCommand(ctx, []string{"SCAN", "0", "MATCH", "{?}scanned", "COUNT", "10000"})
	if err != nil {
		return err
	}
	if reply, ok := res.SingleValue().([]any); ok && len(reply) == 2 {
		if keys, ok := reply[1].([]any); ok && len(keys) < 3 {
			return errOneNode
		}
	}
	return nil
}

func badSUnionStore(ctx context.Context, c clients) error {
	_, err := c.c.SUnionStore(ctx, "set:out", []string{"set:1"})
	return err
}

func badLMPop(ctx context.Context, c clients) error {
	_, err := c.c.LMPop(ctx, []string{"list:1", "list:2"}, constants.Left)
	return err
}

func badZDiff(ctx context.Context, c clients) error {
	_, err := c.c.ZDiff(ctx, []string{"z:1", "z:2"})
	return err
}

func badZMPop(ctx context.Context, c clients) error {
	_, err := c.c.ZMPop(ctx, []string{"z:1", "z:2"}, constants.MAX)
	return err
}

func badZRangeStore(ctx context.Context, c clients) error {
	_, err := c.c.ZRangeStore(ctx, "z:out", "z:1", options.NewRangeByIndexQuery(0, -1))
	return err
}

func badPfMerge(ctx context.Context, c clients) error {
	_, err := c.c.PfMerge(ctx, "hll:all", []string{"hll:1"})
	return err
}

// GLIDE replaces BITOP's server error with its own text.
func badBitOp(ctx context.Context, c clients) error {
	_, err := c.c.BitOp(ctx, options.AND, "bits:out", []string{"bits:1", "bits:2"})
	return err
}

func badGeoSearchStore(ctx context.Context, c clients) error {
	_, err := c.c.GeoSearchStore(ctx, "geo:out", "geo:1", &options.GeoMemberOrigin{Member: "m"}, *options.NewCircleSearchShape(1, constants.GeoUnitMeters))
	return err
}

// A batch that is atomic runs on one node: KEYS there sees that node's keys.
func badBatchKeys(ctx context.Context, c clients) error {
	for _, k := range []string{"{a}batchkeys", "{b}batchkeys", "{c}batchkeys"} { // one on each master
		if _, err := c.c.Set(ctx, k, "1"); err != nil {
			return err
		}
	}
	tx := pipeline.NewClusterBatch(true)
	tx.CustomCommand([]string{"KEYS", "{?}batchkeys"})
	res, err := c.c.Exec(ctx, *tx, true)
	if err != nil {
		return err
	}
	keys, ok := []any(nil), len(res) == 1
	if ok {
		keys, ok = res[0].([]any)
	}
	switch {
	case !ok:
		return fmt.Errorf("KEYS in an atomic batch answered %#v", res)
	case len(keys) < 3:
		return errOneNode
	}
	return nil
}

// Outside a batch GLIDE sends KEYS to every primary.
func goodKeys(ctx context.Context, c clients) error {
	for _, k := range []string{"{a}allkeys", "{b}allkeys", "{c}allkeys"} {
		if _, err := c.c.Set(ctx, k, "1"); err != nil {
			return err
		}
	}
	res, err := c.c.CustomCommand(ctx, []string{"KEYS", "{?}allkeys"})
	if err != nil {
		return err
	}
	if keys, ok := res.SingleValue().([]any); !ok || len(keys) != 3 {
		return fmt.Errorf("KEYS saw %v", res.SingleValue())
	}
	return nil
}

// A cluster client configured for database 1 cannot connect.
func badDatabaseID(ctx context.Context, c clients) error {
	cc, err := glide.NewClusterClient(config.NewClusterClientConfiguration().WithAddress(&c.node).WithDatabaseId(1))
	if err == nil {
		cc.Close()
	}
	return err
}

// A cluster client's pattern subscription is on one node, which publishes
// its own keys' events only.
func badKeyspaceEvents(ctx context.Context, c clients) error {
	if _, err := c.c.CustomCommand(ctx, []string{"CONFIG", "SET", "notify-keyspace-events", "E$"}); err != nil {
		return err
	}
	var mu sync.Mutex
	heard := map[string]bool{}
	subs := config.NewClusterSubscriptionConfig().
		WithSubscription(config.PatternClusterChannelMode, "__keyevent@0__:set").
		WithCallback(func(m *models.PubSubMessage, _ any) {
			mu.Lock()
			heard[m.Message] = true
			mu.Unlock()
		}, nil)
	listener, err := glide.NewClusterClient(config.NewClusterClientConfiguration().WithAddress(&c.node).WithSubscriptionConfig(subs))
	if err != nil {
		return err
	}
	defer listener.Close()
	time.Sleep(200 * time.Millisecond)
	keys := []string{"{a}event", "{b}event", "{c}event"} // one on each master
	for _, k := range keys {
		if _, err := c.c.Set(ctx, k, "1"); err != nil {
			return err
		}
	}
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(heard) < len(keys) {
		return fmt.Errorf("%w: heard %d of %d events", errOneNode, len(heard), len(keys))
	}
	return nil
}

var scenarios = []struct {
	name string
	run  func(context.Context, clients) error
}{
	{"badRename", badRename}, {"goodRename", goodRename},
	{"badSUnion", badSUnion}, {"goodSUnion", goodSUnion},
	{"badMSetNX", badMSetNX}, {"badPfCount", badPfCount}, {"badSortStore", badSortStore},
	{"badCustomRename", badCustomRename},
	{"goodSplitMGet", goodSplitMGet}, {"goodSplitDel", goodSplitDel}, {"goodSplitMSet", goodSplitMSet},
	{"goodCustomMGet", goodCustomMGet},
	{"badAtomicBatch", badAtomicBatch}, {"badAtomicBatchMGet", badAtomicBatchMGet},
	{"goodAtomicBatch", goodAtomicBatch}, {"goodPipeline", goodPipeline},
	{"goodWatch", goodWatch}, {"badWatch", badWatch},
	{"badSelect", badSelect}, {"goodSelect", goodSelect},
	{"badSMove", badSMove}, {"badCopy", badCopy}, {"badLMove", badLMove}, {"goodLMove", goodLMove},
	{"badBLPop", badBLPop}, {"badXRead", badXRead}, {"goodXRead", goodXRead}, {"badLCS", badLCS},
	{"badZUnionStore", badZUnionStore}, {"goodZUnionStore", goodZUnionStore},
	{"badInvokeScript", badInvokeScript}, {"goodInvokeScript", goodInvokeScript}, {"badFCall", badFCall},
	{"badMove", badMove}, {"badCopyToDatabase", badCopyToDatabase}, {"badSortBy", badSortBy},
	{"badRawScan", badRawScan},
	{"badSUnionStore", badSUnionStore}, {"badLMPop", badLMPop}, {"badZDiff", badZDiff}, {"badZMPop", badZMPop},
	{"badZRangeStore", badZRangeStore}, {"badPfMerge", badPfMerge}, {"badBitOp", badBitOp}, {"badGeoSearchStore", badGeoSearchStore},
	{"badBatchKeys", badBatchKeys}, {"goodKeys", goodKeys}, {"badDatabaseID", badDatabaseID}, {"badKeyspaceEvents", badKeyspaceEvents},
}

func connect(host string, port int) (*glide.ClusterClient, error) {
	return glide.NewClusterClient(config.NewClusterClientConfiguration().WithAddress(&config.NodeAddress{Host: host, Port: port}))
}

// main writes one line a scenario to the -results file, name, result (ok
// or error) and the error's text, tab-separated: GLIDE's core writes its
// own log lines to standard output.
func main() {
	addr := flag.String("addr", "", "a Redis Cluster node, host:port")
	results := flag.String("results", "", "the file to write the scenarios' results to")
	flag.Parse()
	host, portText, ok := strings.Cut(*addr, ":")
	port, err := strconv.Atoi(portText)
	if !ok || err != nil || *results == "" {
		fmt.Fprintln(os.Stderr, "usage: glide -addr host:port -results FILE")
		os.Exit(2)
	}
	c, err := connect(host, port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer c.Close()
	other, err := connect(host, port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer other.Close()
	var out strings.Builder
	ctx := context.Background()
	for _, s := range scenarios {
		result, detail := "ok", ""
		if err := s.run(ctx, clients{c: c, other: other, node: config.NodeAddress{Host: host, Port: port}}); err != nil {
			result, detail = "error", strings.ReplaceAll(err.Error(), "\n", " ")
		}
		fmt.Fprintf(&out, "%s\t%s\t%s\n", s.name, result, detail)
	}
	if err := os.WriteFile(*results, []byte(out.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
