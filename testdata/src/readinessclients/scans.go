package readinessclients

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

// Keys a SCAN of each node returns are of any slot of that node: one DEL
// or UNLINK of several of them fails, on the cluster client (its builder
// panics) and on the node itself (a node refuses a command whose keys are
// on two slots, even two slots it owns), as go-redis's ForEachMaster case
// (readiness.perMasterDelete).
func scanEachNode(ctx context.Context, c rueidis.Client) {
	for _, node := range c.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		c.Do(ctx, c.B().Del().Key(entry.Elements...).Build())          // want `DEL keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; the cluster client's builder panics on it`
		node.Do(ctx, node.B().Unlink().Key(entry.Elements...).Build()) // want `UNLINK keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; the cluster client's builder panics on it`
	}
}

func collectThenDelete(ctx context.Context, c rueidis.Client) {
	var keys []string
	for _, node := range c.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		keys = append(keys, entry.Elements...)
	}
	c.Do(ctx, c.B().Del().Key(keys...).Build()) // want `DEL keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; the cluster client's builder panics on it`
}

func pagesOfEachNode(ctx context.Context, c rueidis.Client) {
	for _, node := range c.Nodes() {
		var keys []string
		var cursor uint64
		for {
			entry, _ := node.Do(ctx, node.B().Scan().Cursor(cursor).Match("sess:*").Count(100).Build()).AsScanEntry()
			keys = append(keys, entry.Elements...)
			if cursor = entry.Cursor; cursor == 0 {
				break
			}
		}
		node.Do(ctx, node.B().Del().Key(keys...).Build()) // want `DEL keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; the cluster client's builder panics on it`
	}
}

func valkeyEachNode(ctx context.Context, c valkey.Client) {
	for _, node := range c.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		node.Do(ctx, node.B().Del().Key(entry.Elements...).Build()) // want `DEL keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots for all but about 1 in 16384 pairs of them; the cluster client's builder panics on it`
	}
}

// Near-misses: one key per command; keys of one hash tag; a client forced
// to one node, whose Nodes() is itself.
func oneKeyEach(ctx context.Context, c rueidis.Client) {
	for _, node := range c.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		for _, k := range entry.Elements {
			node.Do(ctx, node.B().Del().Key(k).Build())
			c.Do(ctx, c.B().Unlink().Key(k).Build())
		}
		tagged, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:{u1}:*").Build()).AsScanEntry()
		node.Do(ctx, node.B().Del().Key(tagged.Elements...).Build())
	}
}

func forcedSingle(ctx context.Context) {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:6379"}, ForceSingleClient: true})
	for _, node := range c.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		node.Do(ctx, node.B().Del().Key(entry.Elements...).Build())
	}
	entry, _ := c.Do(ctx, c.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
	c.Do(ctx, c.B().Del().Key(entry.Elements...).Build())
	// One address is not one server: rueidis asks the node, and makes a
	// cluster client of a cluster's.
	one, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:6379"}})
	for _, node := range one.Nodes() {
		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
		node.Do(ctx, node.B().Del().Key(entry.Elements...).Build()) // want `DEL keys "sess:<\*>" for two different keys that SCAN "sess:<\*>" returns are on different hash slots`
	}
}

func keysEachNode(ctx context.Context, c rueidis.Client) {
	for _, node := range c.Nodes() {
		keys, _ := node.Do(ctx, node.B().Keys().Pattern("cart:*").Build()).AsStrSlice()
		node.Do(ctx, node.B().Del().Key(keys...).Build()) // want `DEL keys "cart:<\*>" for two different keys that KEYS "cart:<\*>" returns are on different hash slots`
		for _, k := range keys {
			node.Do(ctx, node.B().Del().Key(k).Build())
		}
	}
}
