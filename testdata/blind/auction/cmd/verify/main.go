//go:build verify

// Command verify runs every labelled function of the service against a live
// three-master cluster (and a three-server cache ring) and prints one line
// per case.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/zeromicro/go-zero/core/logx"

	"example.com/auction/internal/catalogue"
	"example.com/auction/internal/keys"
	"example.com/auction/internal/lots"
)

// Fixtures. Tags were picked so that A/B/C, U/U2/U3 and S/S2/S3 each sit on
// three different masters.
const (
	A  keys.LotID    = "7001" // node 31002
	B  keys.LotID    = "7002" // node 31003
	C  keys.LotID    = "7004" // node 31001
	U  keys.BidderID = "u17"  // node 31001
	U2 keys.BidderID = "u6"   // node 31002
	U3 keys.BidderID = "u7"   // node 31003
	S  keys.SellerID = "s-4"  // node 31001
	S2 keys.SellerID = "s-1"  // node 31002
	S3 keys.SellerID = "s-3"  // node 31003
)

type testCase struct {
	id string
	fn func(ctx context.Context, e *env) error
}

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

func want[T comparable](what string, got, exp T) error {
	if got != exp {
		return errorf("%s: got %v, want %v", what, got, exp)
	}
	return nil
}

func flush(ctx context.Context, e *env) {
	_ = e.cluster.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		m.FlushAll(ctx)
		m.ScriptFlush(ctx)
		m.ConfigSet(ctx, "notify-keyspace-events", "")
		return nil
	})
	_ = e.ring.ForEachShard(ctx, func(ctx context.Context, c *goredis.Client) error {
		return c.FlushAll(ctx).Err()
	})
}

// run executes one case, turning client panics into errors.
func run(e *env, tc testCase) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("client panic: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	return tc.fn(ctx, e)
}

func seedLot(ctx context.Context, e *env, id keys.LotID, high int64, ends time.Time) {
	k := keys.ForLot(id)
	e.cluster.Set(ctx, k.Meta, "Lot "+id.String(), 0)
	e.cluster.Set(ctx, k.High, high, 0)
	e.cluster.Set(ctx, k.Ends, ends.UnixMilli(), 0)
	e.cluster.Set(ctx, k.State, "open", 0)
}

func allLotKeys(ctx context.Context, e *env, pattern string) []string {
	var mu sync.Mutex
	var out []string
	_ = e.cluster.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		ks, err := m.Keys(ctx, pattern).Result()
		mu.Lock()
		out = append(out, ks...)
		mu.Unlock()
		return err
	})
	slices.Sort(out)
	return out
}

func sameKeys(what string, got, exp []string) error {
	if !slices.Equal(got, exp) {
		return errorf("%s saw %d of %d keys (only one node was asked): %v", what, len(got), len(exp), got)
	}
	return nil
}

func main() {
	logx.Disable()
	e, err := wire()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wire:", err)
		os.Exit(1)
	}
	for _, tc := range cases() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		flush(ctx, e)
		cancel()
		if err := run(e, tc); err != nil {
			fmt.Printf("%s error: %s\n", tc.id, strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Printf("%s ok\n", tc.id)
		}
	}
}

var now = time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)

func cases() []testCase {
	return []testCase{
		// ---- lots (go-redis, UniversalClient -> ClusterClient)
		{"B1", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			s, err := e.lots.Snapshot(ctx, A)
			if err != nil {
				return err
			}
			return errors.Join(want("high", s.High, int64(5000)), want("state", s.State, "open"))
		}},
		{"B2", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			e.cluster.Set(ctx, S.Rating(), "4.9", 0)
			_, _, err := e.lots.PriceWithRating(ctx, A, S)
			return err
		}},
		{"B3", func(ctx context.Context, e *env) error {
			if err := e.lots.Open(ctx, lots.Lot{ID: A, Title: "Clock", Opening: 100, EndsAt: now}); err != nil {
				return err
			}
			return want("state", e.cluster.Get(ctx, A.State()).Val(), "open")
		}},
		{"B4", func(ctx context.Context, e *env) error {
			return e.lots.OpenAndIndex(ctx, lots.Lot{ID: A, Title: "Clock", Opening: 100, EndsAt: now})
		}},
		{"B5", func(ctx context.Context, e *env) error {
			e.cluster.Set(ctx, A.Draft(), "new text", 0)
			if err := e.lots.PromoteDraft(ctx, A); err != nil {
				return err
			}
			return want("meta", e.cluster.Get(ctx, A.Meta()).Val(), "new text")
		}},
		{"B6", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, A.Watchers(), "u17", "u6")
			return e.lots.Relist(ctx, A, B)
		}},
		{"B7", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			n, err := e.lots.Purge(ctx, A)
			if err != nil {
				return err
			}
			return want("deleted", n, int64(4))
		}},
		{"B8", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 1, now)
			seedLot(ctx, e, B, 1, now)
			_, err := e.lots.Archive(ctx, A, B)
			return err
		}},
		{"B9", func(ctx context.Context, e *env) error {
			for i, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, int64(100*(i+1)), now)
			}
			p, err := e.lots.Prices(ctx, A, B, C)
			if err != nil {
				return err
			}
			return errors.Join(want("A", p[A], int64(100)), want("B", p[B], int64(200)), want("C", p[C], int64(300)))
		}},
		{"B10", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			if err := e.lots.SetReserve(ctx, A, 4000); err != nil {
				return err
			}
			_, err := e.lots.MeetsReserve(ctx, A)
			return err
		}},
		{"B11", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			if err := e.lots.SetReserve(ctx, A, 4000); err != nil {
				return err
			}
			h, r, err := e.lots.ReserveStatus(ctx, A)
			if err != nil {
				return err
			}
			return errors.Join(want("high", h, int64(5000)), want("reserve", r, int64(4000)))
		}},
		// ---- timers
		{"B12", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now.Add(10*time.Second))
			ends, err := e.sniper.Extend(ctx, A, 5100, now)
			if err != nil {
				return err
			}
			return want("ends", ends.UnixMilli(), now.Add(2*time.Minute).UnixMilli())
		}},
		{"B13", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now.Add(10*time.Second))
			e.cluster.HSet(ctx, keys.SnipingConfig, "window_ms", 180000)
			_, err := e.sniper.ExtendConfigured(ctx, A, 5100, now)
			return err
		}},
		{"B14", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now.Add(-time.Second))
			if err := e.clock.CloseIfDue(ctx, A, now); err != nil {
				return err
			}
			return want("state", e.cluster.Get(ctx, A.State()).Val(), "closed")
		}},
		{"B15", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now.Add(-time.Second))
			return e.clock.CloseAndQueuePayout(ctx, A, S, now)
		}},
		{"B16", func(ctx context.Context, e *env) error {
			if err := e.queues.Push(ctx, "normal", C); err != nil {
				return err
			}
			id, err := e.queues.NextDue(ctx, time.Second)
			if err != nil {
				return err
			}
			return want("lot", id, C)
		}},
		{"B17", func(ctx context.Context, e *env) error {
			if err := e.queues.PushLegacy(ctx, "normal", A); err != nil {
				return err
			}
			_, err := e.queues.NextLegacy(ctx, time.Second)
			return err
		}},
		{"B18", func(ctx context.Context, e *env) error {
			e.feed.Append(ctx, A.Events(), "bid")
			e.feed.Append(ctx, A.Audit(), "bid-checked")
			ev, err := e.feed.Follow(ctx, A)
			if err != nil {
				return err
			}
			return want("events", len(ev), 2)
		}},
		{"B19", func(ctx context.Context, e *env) error {
			e.feed.Append(ctx, A.Events(), "bid")
			e.feed.Append(ctx, S.Events(), "relisted")
			_, err := e.feed.FollowWithSeller(ctx, A, S)
			return err
		}},
		// ---- hot boards
		{"B20", func(ctx context.Context, e *env) error {
			e.boards.Bump(ctx, "home", A, now, 3)
			e.boards.Bump(ctx, "home", A, now.Add(time.Hour), 2)
			e.boards.Bump(ctx, "home", B, now, 1)
			n, err := e.boards.RollupDay(ctx, "home", now)
			if err != nil {
				return err
			}
			return errors.Join(want("members", n, int64(2)),
				want("score A", e.cluster.ZScore(ctx, keys.Board("home").Day(now), A.String()).Val(), 5.0))
		}},
		{"B21", func(ctx context.Context, e *env) error {
			e.cluster.ZAdd(ctx, keys.CategoryHot("art"), goredis.Z{Score: 3, Member: A.String()})
			e.cluster.ZAdd(ctx, keys.CategoryHot("coins"), goredis.Z{Score: 2, Member: B.String()})
			_, err := e.boards.RollupCategories(ctx, "art", "coins")
			return err
		}},
		{"B22", func(ctx context.Context, e *env) error {
			e.boards.CountView(ctx, A, "web", "v1")
			e.boards.CountView(ctx, A, "web", "v2")
			e.boards.CountView(ctx, A, "app", "v2")
			e.boards.CountView(ctx, A, "app", "v3")
			n, err := e.boards.UniqueViewers(ctx, A)
			if err != nil {
				return err
			}
			return want("viewers", n, int64(3))
		}},
		{"B23", func(ctx context.Context, e *env) error {
			e.boards.CountView(ctx, A, "web", "v1")
			e.boards.CountView(ctx, B, "web", "v2")
			_, err := e.boards.UniqueViewersAcross(ctx, A, B)
			return err
		}},
		{"B24", func(ctx context.Context, e *env) error {
			e.cluster.RPush(ctx, keys.Board("home").Watched(), A.String(), B.String())
			_, err := e.boards.TopWatchedByPrice(ctx, "home", 10)
			return err
		}},
		{"B25", func(ctx context.Context, e *env) error {
			e.cluster.RPush(ctx, keys.Board("home").RecentBids(), 500, 9000, 1200)
			top, err := e.boards.RecentHighBids(ctx, "home", 2)
			if err != nil {
				return err
			}
			return want("top", strings.Join(top, ","), "9000,1200")
		}},
		// ---- admin
		{"B26", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			n, err := e.ops.KeyCount(ctx)
			if err != nil {
				return err
			}
			return want("keys", n, int64(12))
		}},
		{"B27", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			got, err := e.ops.LotKeys(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "lot:*"))
		}},
		{"B28", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			got, err := e.ops.LotKeysAllNodes(ctx)
			if err != nil {
				return err
			}
			return sameKeys("SCAN", got, allLotKeys(ctx, e, "lot:*"))
		}},
		{"B29", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			if err := e.ops.ResetSandbox(ctx); err != nil {
				return err
			}
			if left := allLotKeys(ctx, e, "*"); len(left) > 0 {
				return errorf("FLUSHDB reached one node only, %d keys left: %v", len(left), left)
			}
			return nil
		}},
		{"B30", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			if err := e.ops.ResetSandboxAllShards(ctx); err != nil {
				return err
			}
			if left := allLotKeys(ctx, e, "*"); len(left) > 0 {
				return errorf("%d keys left: %v", len(left), left)
			}
			return nil
		}},
		{"B31", func(ctx context.Context, e *env) error {
			if err := e.ops.EnableExpiryEvents(ctx); err != nil {
				return err
			}
			return notifyEverywhere(ctx, e)
		}},
		{"B32", func(ctx context.Context, e *env) error {
			if err := e.ops.EnableExpiryEventsEverywhere(ctx); err != nil {
				return err
			}
			return notifyEverywhere(ctx, e)
		}},
		{"B33", func(ctx context.Context, e *env) error {
			shas, err := e.ops.PreloadScripts(ctx)
			if err != nil {
				return err
			}
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 42, now)
				v, err := e.cluster.EvalSha(ctx, shas[0], []string{id.High()}).Text()
				if err != nil {
					return fmt.Errorf("EVALSHA on %s: %w", id.High(), err)
				}
				if v != "42" {
					return errorf("EVALSHA on %s returned %q", id.High(), v)
				}
			}
			return nil
		}},
		{"B34", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 1, now)
			}
			got, err := e.ops.ScanLots(ctx)
			if err != nil {
				return err
			}
			return sameKeys("SCAN", got, allLotKeys(ctx, e, "lot:*"))
		}},
		// ---- notify
		{"B35", func(ctx context.Context, e *env) error {
			ch, err := e.hub.WatchLot(ctx, A)
			if err != nil {
				return err
			}
			if err := e.hub.Outbid(ctx, A, "u6 outbid you"); err != nil {
				return err
			}
			select {
			case m := <-ch:
				return want("payload", m.Payload, "u6 outbid you")
			case <-time.After(2 * time.Second):
				return errorf("no outbid notice received")
			}
		}},
		{"B36", func(ctx context.Context, e *env) error {
			_, err := e.hub.WatchLotAndInbox(ctx, A, U)
			return err
		}},
		{"B37", func(ctx context.Context, e *env) error {
			if err := e.ops.EnableExpiryEventsEverywhere(ctx); err != nil {
				return err
			}
			got := make(chan string, 16)
			if err := e.expiry.Listen(ctx, got); err != nil {
				return err
			}
			return expectExpirations(ctx, e, got)
		}},
		{"B38", func(ctx context.Context, e *env) error {
			if err := e.ops.EnableExpiryEventsEverywhere(ctx); err != nil {
				return err
			}
			got := make(chan string, 16)
			if err := e.expiry.ListenAllShards(ctx, got); err != nil {
				return err
			}
			return expectExpirations(ctx, e, got)
		}},
		// ---- sessions
		{"B39", func(ctx context.Context, e *env) error {
			if err := e.sessions.Save(ctx, U, "tok-1"); err != nil {
				return err
			}
			if e.cluster.Exists(ctx, U.Session()).Val() == 1 {
				return errorf("DB 4 was dropped by the cluster client: %s written to db 0 next to auction data", U.Session())
			}
			return nil
		}},
		{"B40", func(ctx context.Context, e *env) error {
			if err := e.prefs.Save(ctx, U, map[string]string{"currency": "EUR", "lang": "de"}); err != nil {
				return err
			}
			return want("currency", e.cluster.HGet(ctx, U.Prefs(), "currency").Val(), "EUR")
		}},
		// ---- catalogue cache ring + rueidis client-side cache
		{"B41", func(ctx context.Context, e *env) error {
			ids := []keys.LotID{A, B, C, "7003", "7005", "7006"}
			for _, id := range ids {
				e.cache.Put(ctx, catalogue.Doc{Lot: id, Body: "<html>" + id.String()})
			}
			got, err := e.cache.GetMany(ctx, ids...)
			if err != nil {
				return err
			}
			var missing []string
			for _, id := range ids {
				if got[id] == "" {
					missing = append(missing, id.String())
				}
			}
			if len(missing) > 0 {
				return errorf("ring MGET went to one shard: %d of %d cached pages came back empty %v", len(missing), len(ids), missing)
			}
			return nil
		}},
		{"B42", func(ctx context.Context, e *env) error {
			ids := []keys.LotID{A, B, C, "7003", "7005", "7006"}
			for _, id := range ids {
				e.cache.Put(ctx, catalogue.Doc{Lot: id, Body: "<html>" + id.String()})
			}
			got, err := e.cache.GetManyPipelined(ctx, ids...)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if got[id] == "" {
					return errorf("page %s missing", id)
				}
			}
			return nil
		}},
		{"B43", func(ctx context.Context, e *env) error {
			if err := e.cache.PutWithIndex(ctx, catalogue.Doc{Lot: A, Category: "clocks", Body: "<html>"}, 7); err != nil {
				return err
			}
			if _, err := e.cache.IndexRank(ctx, "clocks", A); err != nil {
				return fmt.Errorf("index entry written on the page's shard, not the index's shard: ZSCORE %s: %w", keys.CatalogueIndex("clocks"), err)
			}
			return nil
		}},
		{"B44", func(ctx context.Context, e *env) error {
			if err := e.cache.PutWithETag(ctx, catalogue.Doc{Lot: A, Body: "<html>", ETag: "W/1"}); err != nil {
				return err
			}
			_, etag, err := e.cache.GetWithETag(ctx, A)
			if err != nil {
				return err
			}
			return want("etag", etag, "W/1")
		}},
		{"B45", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			c, err := e.live.Lookup(ctx, A)
			if err != nil {
				return err
			}
			return want("high", c.High, "5000")
		}},
		{"B46", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			_, err := e.live.LookupWithSeller(ctx, A, S)
			return err
		}},
		{"B47", func(ctx context.Context, e *env) error {
			for i, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, int64(i+1), now)
			}
			got, err := e.live.LookupMany(ctx, A, B, C)
			if err != nil {
				return err
			}
			return errors.Join(want("A", got[A], "1"), want("B", got[B], "2"), want("C", got[C], "3"))
		}},
		// ---- bids (rueidis)
		{"B48", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			if err := e.book.Place(ctx, A, U, 5500); err != nil {
				return err
			}
			return want("leader", e.cluster.Get(ctx, A.Leader()).Val(), U.String())
		}},
		{"B49", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			e.cluster.Set(ctx, U.Credit(), 100000, 0)
			return e.book.PlaceOnCredit(ctx, A, U, 5500)
		}},
		{"B50", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 5000, now)
			return e.book.PlaceUnlessBanned(ctx, A, U, 5500)
		}},
		{"B51", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 0, now)
				if err := e.book.Place(ctx, id, U, 100); err != nil {
					return err
				}
				if err := e.book.Place(ctx, id, U2, 200); err != nil {
					return err
				}
			}
			h, err := e.book.Histories(ctx, 5, A, B, C)
			if err != nil {
				return err
			}
			for _, id := range []keys.LotID{A, B, C} {
				if len(h[id]) != 2 || h[id][0].Bidder != U2.String() {
					return errorf("history of %s: %v", id, h[id])
				}
			}
			return nil
		}},
		{"B52", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 1, now)
			seedLot(ctx, e, B, 2, now)
			_, _, err := e.book.Compare(ctx, A, B)
			return err
		}},
		{"B53", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 0, now)
			e.book.Place(ctx, A, U, 100)
			e.book.Place(ctx, A, U2, 200)
			if err := e.book.Retract(ctx, A, U2, 100); err != nil {
				return err
			}
			return errors.Join(want("high", e.cluster.Get(ctx, A.High()).Val(), "100"),
				want("bids", e.cluster.ZCard(ctx, A.Bids()).Val(), int64(1)))
		}},
		{"B54", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 100, now)
			return e.book.Award(ctx, A, U)
		}},
		{"B55", func(ctx context.Context, e *env) error {
			e.book.Join(ctx, A, U, false)
			e.book.Join(ctx, A, U2, false)
			e.book.Join(ctx, A, U2, true)
			e.book.Join(ctx, A, U3, true)
			n, err := e.book.RepeatBidders(ctx, A)
			if err != nil {
				return err
			}
			return want("repeat", n, int64(1))
		}},
		{"B56", func(ctx context.Context, e *env) error {
			e.book.Join(ctx, A, U, false)
			e.book.Join(ctx, B, U, false)
			_, err := e.book.SharedBidders(ctx, A, B)
			return err
		}},
		{"B57", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 7, now)
			}
			_, err := e.tools.QuickHigh(ctx, A, B, C)
			return err
		}},
		{"B58", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 7, now)
			}
			v, err := e.tools.QuickHighAllNodes(ctx, A, B, C)
			if err != nil {
				return err
			}
			return want("highs", strings.Join(v, ","), "7,7,7")
		}},
		{"B59", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 0, now)
				e.book.Place(ctx, id, U, 10)
			}
			got, err := e.tools.DebugKeys(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "lot:*:bids"))
		}},
		{"B60", func(ctx context.Context, e *env) error {
			for _, id := range []keys.LotID{A, B, C} {
				seedLot(ctx, e, id, 0, now)
				e.book.Place(ctx, id, U, 10)
			}
			got, err := e.tools.DebugKeysCompat(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "lot:*:bids"))
		}},
		{"B61", func(ctx context.Context, e *env) error {
			return e.tools.Quarantine(ctx, U)
		}},
		{"B62", func(ctx context.Context, e *env) error {
			ctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			return e.alerts.FollowLotForBidder(ctx, A, U, func(string, string) {})
		}},
		{"B63", func(ctx context.Context, e *env) error {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			got := make(chan string, 1)
			go func() {
				for ctx.Err() == nil {
					e.alerts.Publish(ctx, A.Channel("outbid"), "outbid!")
					time.Sleep(100 * time.Millisecond)
				}
			}()
			done := make(chan error, 1)
			go func() {
				done <- e.alerts.FollowLot(ctx, A, func(_, msg string) {
					select {
					case got <- msg:
					default:
					}
				})
			}()
			select {
			case m := <-got:
				cancel()
				<-done
				return want("msg", m, "outbid!")
			case err := <-done:
				return fmt.Errorf("receive ended before any alert: %v", err)
			}
		}},
		{"B64", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 100, now)
			return e.tools.SettleSale(ctx, A, S, 100)
		}},
		{"B65", func(ctx context.Context, e *env) error {
			seedLot(ctx, e, A, 100, now)
			if err := e.tools.MarkPaid(ctx, A, U); err != nil {
				return err
			}
			return want("paid_by", e.cluster.HGet(ctx, A.Flags(), "paid_by").Val(), U.String())
		}},
		// ---- watchlists (redigo + redisc)
		{"B66", func(ctx context.Context, e *env) error {
			return e.watch.Add(ctx, U, A)
		}},
		{"B67", func(ctx context.Context, e *env) error {
			if err := e.watch.AddRetrying(ctx, U, A); err != nil {
				return err
			}
			return errors.Join(want("watch", e.cluster.SIsMember(ctx, U.Watchlist(), A.String()).Val(), true),
				want("watchers", e.cluster.SIsMember(ctx, A.Watchers(), U.String()).Val(), true))
		}},
		{"B68", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String(), B.String())
			e.cluster.SAdd(ctx, U.Archive(), C.String())
			s, err := e.watch.Snapshot(ctx, U)
			if err != nil {
				return err
			}
			return errors.Join(want("count", s.Count, 2), want("archived", s.Archived, 1))
		}},
		{"B69", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), C.String())
			if err := e.watch.Replace(ctx, U, []keys.LotID{A, B}); err != nil {
				return err
			}
			m := e.cluster.SMembers(ctx, U.Watchlist()).Val()
			slices.Sort(m)
			return want("members", strings.Join(m, ","), "7001,7002")
		}},
		{"B70", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String())
			e.cluster.SAdd(ctx, A.Watchers(), U.String())
			return e.watch.Unwatch(ctx, U, A)
		}},
		{"B71", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String())
			ok, err := e.watch.MoveToArchive(ctx, U, A)
			if err != nil {
				return err
			}
			return want("moved", ok, true)
		}},
		{"B72", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String())
			e.cluster.SAdd(ctx, U2.Watchlist(), B.String())
			_, err := e.watch.Household(ctx, U, U2)
			return err
		}},
		{"B73", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String(), B.String())
			if err := e.watch.MarkSeen(ctx, U, A); err != nil {
				return err
			}
			_, err := e.watch.UnseenWatched(ctx, U)
			return err
		}},
		{"B74", func(ctx context.Context, e *env) error {
			if err := e.watch.SetFlags(ctx, A, map[string]string{"reviewed": "1", "by": "mod-3"}); err != nil {
				return err
			}
			return want("by", e.cluster.HGet(ctx, A.Flags(), "by").Val(), "mod-3")
		}},
		{"B75", func(ctx context.Context, e *env) error {
			return e.watch.MarkEnding(ctx, A, U)
		}},
		{"B76", func(ctx context.Context, e *env) error {
			e.cluster.SAdd(ctx, U.Watchlist(), A.String())
			e.cluster.SAdd(ctx, U.Archive(), B.String())
			n, err := e.watch.Clear(ctx, U)
			if err != nil {
				return err
			}
			return want("deleted", n, 2)
		}},
		// ---- fraud (redigo + redisc)
		{"B77", func(ctx context.Context, e *env) error {
			for range 3 {
				if err := e.limiter.Allow(ctx, U); err != nil {
					return err
				}
			}
			return want("minute", e.cluster.Get(ctx, keys.BidderRate(U, "m")).Val(), "3")
		}},
		{"B78", func(ctx context.Context, e *env) error {
			return e.limiter.AllowFromIP(ctx, U, "198.51.100.7")
		}},
		{"B79", func(ctx context.Context, e *env) error {
			return e.global.Allow(ctx)
		}},
		{"B80", func(ctx context.Context, e *env) error {
			e.cluster.Set(ctx, keys.RateSpace{}.Key("lots", "m"), 12, 0)
			n, err := e.global.Current(ctx)
			if err != nil {
				return err
			}
			return want("current", n, 12)
		}},
		{"B81", func(ctx context.Context, e *env) error {
			return e.quar.Add(ctx, U)
		}},
		{"B82", func(ctx context.Context, e *env) error {
			for _, b := range []keys.BidderID{U, U2, U3} {
				e.cluster.Set(ctx, keys.BidderRate(b, "m"), 1, 0)
			}
			got, err := e.audit.Counters(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "rate:*"))
		}},
		{"B83", func(ctx context.Context, e *env) error {
			for _, b := range []keys.BidderID{U, U2, U3} {
				e.cluster.Set(ctx, keys.BidderRate(b, "m"), 1, 0)
			}
			got, err := e.audit.CountersAllNodes(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "rate:*"))
		}},
		// ---- payouts (go-zero, cluster)
		{"B84", func(ctx context.Context, e *env) error {
			l := e.ledger()
			if err := l.Enqueue(ctx, S, "tr-1"); err != nil {
				return err
			}
			_, err := l.ReassignNextPayout(ctx, S, S2)
			return err
		}},
		{"B85", func(ctx context.Context, e *env) error {
			l := e.ledger()
			if err := l.Credit(ctx, S, 1000); err != nil {
				return err
			}
			paid, err := l.Settle(ctx, S, 400)
			if err != nil {
				return err
			}
			return want("paid", paid, int64(400))
		}},
		{"B86", func(ctx context.Context, e *env) error {
			l := e.ledger()
			l.Credit(ctx, S, 1000)
			_, err := l.SettleWithFee(ctx, S, 400)
			return err
		}},
		{"B87", func(ctx context.Context, e *env) error {
			l := e.ledger()
			l.Credit(ctx, S, 1000)
			e.cluster.HSet(ctx, keys.FXRates, "GBP", "1.17")
			_, err := l.SettleFX(ctx, S, 100, "GBP")
			return err
		}},
		{"B88", func(ctx context.Context, e *env) error {
			l := e.ledger()
			l.Credit(ctx, S, 1000)
			b, err := l.Balances(ctx, S)
			if err != nil {
				return err
			}
			return want("pending", b.Pending, int64(1000))
		}},
		{"B89", func(ctx context.Context, e *env) error {
			l := e.ledger()
			l.Credit(ctx, S, 1000)
			seedLot(ctx, e, A, 1000, now)
			_, _, err := l.Statement(ctx, S, A)
			return err
		}},
		{"B90", func(ctx context.Context, e *env) error {
			l := e.ledger()
			l.Credit(ctx, S, 1000)
			l.Settle(ctx, S, 100)
			n, err := l.Close(ctx, S)
			if err != nil {
				return err
			}
			return want("deleted", n, 2)
		}},
		{"B91", func(ctx context.Context, e *env) error {
			l := e.ledger()
			e.cluster.HSet(ctx, S.Ledger(), "iban", "x")
			e.cluster.HSet(ctx, S2.Ledger(), "iban", "y")
			_, err := l.PurgeLedgers(ctx, S, S2)
			return err
		}},
		{"B92", func(ctx context.Context, e *env) error {
			l := e.ledger()
			if err := l.CreditMany(ctx, map[keys.SellerID]int64{S: 1, S2: 2, S3: 3}); err != nil {
				return err
			}
			return errors.Join(want("S2", e.cluster.Get(ctx, S2.Pending()).Val(), "2"),
				want("S3", e.cluster.Get(ctx, S3.Pending()).Val(), "3"))
		}},
		{"B93", func(ctx context.Context, e *env) error {
			l := e.ledger()
			for _, s := range []keys.SellerID{S, S2, S3} {
				l.Credit(ctx, s, 10)
			}
			got, err := l.PendingSellers(ctx)
			if err != nil {
				return err
			}
			return sameKeys("KEYS", got, allLotKeys(ctx, e, "payout:*:pending"))
		}},
		{"B94", func(ctx context.Context, e *env) error {
			l := e.ledger()
			if err := l.Enqueue(ctx, S, "tr-1"); err != nil {
				return err
			}
			id, err := l.RetryNextPayout(ctx, S)
			if err != nil {
				return err
			}
			return want("transfer", id, "tr-1")
		}},
		// ---- search (go-zero, cluster; index prefix wired as "auc{eu}:")
		{"B95", func(ctx context.Context, e *env) error {
			f := e.facets()
			if err := tagLots(ctx, f); err != nil {
				return err
			}
			n, err := f.Union(ctx, "art-or-1900", keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"})
			if err != nil {
				return err
			}
			return want("union", n, 3)
		}},
		{"B96", func(ctx context.Context, e *env) error {
			f := e.facets()
			if err := tagLots(ctx, f); err != nil {
				return err
			}
			_, err := f.UnionForAPI(ctx, "art-or-1900", keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"})
			return err
		}},
		{"B97", func(ctx context.Context, e *env) error {
			f := e.facets()
			if err := tagLots(ctx, f); err != nil {
				return err
			}
			_, err := f.IntersectLegacy(ctx, "art-and-1900", keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"})
			return err
		}},
		{"B98", func(ctx context.Context, e *env) error {
			f := e.facets()
			if err := tagLots(ctx, f); err != nil {
				return err
			}
			n, err := f.HotInFacets(ctx, "q1", keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"})
			if err != nil {
				return err
			}
			return want("ranked", n, int64(3))
		}},
		{"B99", func(ctx context.Context, e *env) error {
			f := e.facets()
			e.cluster.ZAdd(ctx, keys.CategoryHot("art"), goredis.Z{Score: 3, Member: A.String()})
			e.cluster.ZAdd(ctx, keys.CategoryHot("coins"), goredis.Z{Score: 2, Member: B.String()})
			_, err := f.HotAcrossCategories(ctx, "art", "coins")
			return err
		}},
		{"B100", func(ctx context.Context, e *env) error {
			f := e.facets()
			if err := tagLots(ctx, f); err != nil {
				return err
			}
			art, era := keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"}
			n, err := f.LegacyCounts(ctx, art, era)
			if err != nil {
				return err
			}
			return errors.Join(want("art", n[art], int64(2)), want("era", n[era], int64(2)))
		}},
	}
}

func tagLots(ctx context.Context, f interface {
	Tag(context.Context, keys.LotID, ...keys.Facet) error
}) error {
	art, era := keys.Facet{Field: "cat", Value: "art"}, keys.Facet{Field: "era", Value: "1900"}
	return errors.Join(f.Tag(ctx, A, art), f.Tag(ctx, B, art, era), f.Tag(ctx, C, era))
}

func notifyEverywhere(ctx context.Context, e *env) error {
	var mu sync.Mutex
	var missing []string
	err := e.cluster.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		v, err := m.ConfigGet(ctx, "notify-keyspace-events").Result()
		if err != nil {
			return err
		}
		if !strings.Contains(v["notify-keyspace-events"], "x") {
			mu.Lock()
			missing = append(missing, m.Options().Addr)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		return errorf("CONFIG SET reached one node only; expiry events still off on %v", missing)
	}
	return nil
}

func expectExpirations(ctx context.Context, e *env, got <-chan string) error {
	exp := []string{A.Ends(), B.Ends(), C.Ends()}
	for _, k := range exp {
		e.cluster.Set(ctx, k, 1, 50*time.Millisecond)
	}
	seen := map[string]bool{}
	deadline := time.After(3 * time.Second)
	for len(seen) < len(exp) {
		select {
		case k := <-got:
			seen[k] = true
		case <-deadline:
			return errorf("expiry listener saw %d of %d expirations (one node only): %v", len(seen), len(exp), seen)
		}
	}
	return nil
}
