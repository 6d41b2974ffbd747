//go:build verify

// Command verify runs every labelled case against a live three-master
// cluster, flushing between cases, and prints "ID ok" or "ID error: ...".
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-go"

	"example.com/arena/internal/anticheat"
	"example.com/arena/internal/chat"
	"example.com/arena/internal/guild"
	"example.com/arena/internal/ids"
	"example.com/arena/internal/inventory"
	"example.com/arena/internal/leaderboard"
	"example.com/arena/internal/lobby"
	"example.com/arena/internal/matchmaking"
)

var regions = []string{"eu", "na", "asia"}

type testCase struct {
	id  string
	run func(ctx context.Context) error
}

func main() {
	nodesFlag := flag.String("cluster", "127.0.0.1:31001,127.0.0.1:31002,127.0.0.1:31003", "cluster nodes")
	outPath := flag.String("out", "", "also write the result lines to this file (GLIDE's core logs to stdout)")
	flag.Parse()
	nodes := strings.Split(*nodesFlag, ",")
	ctx := context.Background()

	// Wiring mirrors cmd/arena/main.go.
	cluster := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: nodes})
	defer cluster.Close()
	universal := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: nodes, IsClusterMode: true})
	defer universal.Close()
	vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: nodes})
	if err != nil {
		log.Fatalf("valkey: %v", err)
	}
	defer vk.Close()
	rc := &redisc.Cluster{
		StartupNodes: nodes,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{MaxIdle: 10, IdleTimeout: time.Minute,
				Dial: func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) }}, nil
		},
	}
	if err := rc.Refresh(); err != nil {
		log.Fatalf("redisc: %v", err)
	}
	defer rc.Close()
	gcfg := config.NewClusterClientConfiguration().WithRequestTimeout(time.Second)
	for _, n := range nodes {
		host, port, _ := net.SplitHostPort(n)
		p, _ := strconv.Atoi(port)
		gcfg = gcfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	gc, err := glide.NewClusterClient(gcfg)
	if err != nil {
		log.Fatalf("glide: %v", err)
	}
	defer gc.Close()

	mm := matchmaking.New(cluster, "mm")
	lb := lobby.NewService(universal, lobby.Options{Prefix: "arena", TTL: 2 * time.Hour})
	board := leaderboard.NewStore(universal, regions...)
	acfg := anticheat.Config{Window: 10 * time.Second, MaxActions: 30, MaxStrikes: 3, BanList: "ac:banned"}
	lim := anticheat.NewLimiter(cluster, acfg)
	inv := inventory.New(vk)
	guilds := guild.NewRepo(rc)
	ch := chat.NewService(gc, regions)

	// Distinct ids that land on different slots (and, where a case needs
	// it, on different nodes).
	const (
		pA, pB   = ids.PlayerID("p1001"), ids.PlayerID("p2002")
		lobbyA   = ids.LobbyID("l-77")
		partyA   = ids.PartyID("pt-31")
		partyB   = ids.PartyID("pt-58")
		season   = ids.Season(7)
		guildA   = ids.GuildID("g-ironwolves")
		guildB   = ids.GuildID("g-nightowls")
		roomA    = ids.RoomID("r-general")
		roomB    = ids.RoomID("r-lfg")
		matchA   = ids.MatchID("m-551")
		ticketA  = ids.TicketID("t-4821")
		ticketB  = ids.TicketID("t-9377")
		clientIP = "203.0.113.7"
	)
	tA := matchmaking.Ticket{ID: ticketA, Player: pA, Mode: "ranked", Region: "eu", Rating: 1500}
	tB := matchmaking.Ticket{ID: ticketB, Player: pB, Mode: "ranked", Region: "eu", Rating: 1520}

	seed := func(ctx context.Context, cmds ...[]any) error {
		for _, c := range cmds {
			if err := cluster.Do(ctx, c...).Err(); err != nil {
				return fmt.Errorf("seed %v: %w", c, err)
			}
		}
		return nil
	}
	times := func(n int, f func() error) error {
		for i := 0; i < n; i++ {
			if err := f(); err != nil {
				return err
			}
			time.Sleep(time.Millisecond)
		}
		return nil
	}
	ignore := func(_ any, err error) error { return err }
	ignore3 := func(_, _ any, err error) error { return err }
	ignore4 := func(_, _, _ any, err error) error { return err }
	closePS := func(ps *goredis.PubSub, err error) error {
		if ps != nil {
			ps.Close()
		}
		return err
	}

	cases := []testCase{
		// matchmaking (go-redis ClusterClient)
		{"G1", func(ctx context.Context) error { return mm.Enqueue(ctx, tA) }},
		{"G2", func(ctx context.Context) error { return mm.EnqueuePooled(ctx, tA) }},
		{"G3", func(ctx context.Context) error {
			if err := seed(ctx,
				[]any{"ZADD", "mm:queue:ranked:eu", 1, string(ticketA), 2, string(ticketB)},
				[]any{"SET", "mm:ticket:t-4821:rating", 1500}, []any{"SET", "mm:ticket:t-9377:rating", 1520}); err != nil {
				return err
			}
			return ignore(mm.DrainQueue(ctx, "ranked", "eu", 2))
		}},
		{"G4", func(ctx context.Context) error {
			if err := mm.EnqueuePooled(ctx, tA); err != nil {
				return err
			}
			if err := mm.EnqueuePooled(ctx, tB); err != nil {
				return err
			}
			r, err := mm.DrainPool(ctx, "ranked", "eu", 2)
			if err == nil && (len(r) != 2 || r[0] != 1500) {
				err = fmt.Errorf("unexpected ratings %v", r)
			}
			return err
		}},
		{"G5", func(ctx context.Context) error { return mm.Cancel(ctx, ticketA) }},
		{"G6", func(ctx context.Context) error { return mm.CancelPooled(ctx, "ranked", "eu", ticketA) }},
		{"G7", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "mm:match:pending:m-551", "accepted", 0}); err != nil {
				return err
			}
			return mm.PromoteMatch(ctx, matchA)
		}},
		{"G8", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "mm:{pool:ranked:eu}:match:m-551:pending", "accepted", 0}); err != nil {
				return err
			}
			return mm.PromotePoolMatch(ctx, "ranked", "eu", matchA)
		}},
		{"G9", func(ctx context.Context) error { return mm.Claim(ctx, tA) }},
		{"G10", func(ctx context.Context) error { return mm.ClaimPooled(ctx, tA) }},
		{"G11", func(ctx context.Context) error { return ignore(mm.Tickets(ctx, ticketA, ticketB)) }},
		{"G12", func(ctx context.Context) error {
			if err := seed(ctx, []any{"RPUSH", "mm:backfill:eu", "srv-1"}); err != nil {
				return err
			}
			return ignore(mm.NextBackfill(ctx, "eu"))
		}},
		{"G13", func(ctx context.Context) error {
			if err := seed(ctx, []any{"RPUSH", "mm:{pool:ranked:eu}:backfill", "srv-1"}); err != nil {
				return err
			}
			return ignore(mm.NextPoolBackfill(ctx, "ranked", "eu"))
		}},
		{"G14", func(ctx context.Context) error { return ignore(mm.Accept(ctx, tA, matchA)) }},
		{"G15", func(ctx context.Context) error { return ignore(mm.AcceptPooled(ctx, tA, matchA)) }},

		// lobby (go-redis UniversalClient, cluster mode)
		{"G16", func(ctx context.Context) error { return lb.Join(ctx, lobbyA, pA) }},
		{"G17", func(ctx context.Context) error { return lb.JoinV2(ctx, lobbyA, pA) }},
		{"G18", func(ctx context.Context) error { return ignore(lb.MergeParties(ctx, partyA, partyB)) }},
		{"G19", func(ctx context.Context) error { return ignore(lb.AcceptInvites(ctx, partyA)) }},
		{"G20", func(ctx context.Context) error { return ignore(lb.SwitchParty(ctx, pA, partyA, partyB)) }},
		{"G21", func(ctx context.Context) error { return lb.SwitchPartyLoose(ctx, pA, partyA, partyB) }},
		{"G22", func(ctx context.Context) error {
			if err := lb.Open(ctx, lobbyA, pA, "ranked", "dust"); err != nil {
				return err
			}
			return ignore(lb.Snapshot(ctx, lobbyA))
		}},
		{"G23", func(ctx context.Context) error {
			if err := lb.Open(ctx, lobbyA, pA, "ranked", "dust"); err != nil {
				return err
			}
			s, err := lb.SnapshotV2(ctx, lobbyA)
			if err == nil && s.Map != "dust" {
				err = fmt.Errorf("unexpected snapshot %+v", s)
			}
			return err
		}},
		{"G24", func(ctx context.Context) error { return lb.Disband(ctx, lobbyA, pA) }},
		{"G25", func(ctx context.Context) error { return lb.Close(ctx, lobbyA) }},
		{"G26", func(ctx context.Context) error { return closePS(lb.Follow(ctx, lobbyA, partyA)) }},
		{"G27", func(ctx context.Context) error { return closePS(lb.Attach(ctx, lobbyA)) }},

		// leaderboard (go-redis UniversalClient, cluster mode)
		{"G28", func(ctx context.Context) error { return ignore(board.RollupLegacy(ctx, 6)) }},
		{"G29", func(ctx context.Context) error { return ignore(board.Rollup(ctx, season)) }},
		{"G30", func(ctx context.Context) error {
			if err := seed(ctx, []any{"ZADD", "lb:season:6:global", 10, string(pA)}); err != nil {
				return err
			}
			return board.ArchiveLegacy(ctx, 6)
		}},
		{"G31", func(ctx context.Context) error {
			if err := seed(ctx, []any{"ZADD", "lb:{season:7}:global", 10, string(pA)}); err != nil {
				return err
			}
			return board.Archive(ctx, season)
		}},
		{"G32", func(ctx context.Context) error { return ignore(board.FriendsBoard(ctx, season, pA)) }},
		{"G33", func(ctx context.Context) error {
			return ignore(board.FriendsScores(ctx, season, []ids.PlayerID{pA, pB}))
		}},
		{"G34", func(ctx context.Context) error { return board.Submit(ctx, season, "eu", pA, 25) }},
		{"G35", func(ctx context.Context) error { return board.SubmitSeason(ctx, season, "eu", pA, 25) }},
		{"G36", func(ctx context.Context) error {
			if err := seed(ctx, []any{"SADD", "lb:{season:7}:top100", string(pA), string(pB)}); err != nil {
				return err
			}
			return ignore(board.HallOfFame(ctx, season))
		}},
		{"G37", func(ctx context.Context) error {
			if err := seed(ctx, []any{"SADD", "lb:{season:7}:top100", string(pA), string(pB)}); err != nil {
				return err
			}
			return ignore(board.HallOfFameIDs(ctx, season))
		}},
		{"G38", func(ctx context.Context) error {
			if err := seed(ctx, []any{"ZADD", "lb:{season:7}:global", 10, string(pA)}); err != nil {
				return err
			}
			return board.ColdArchive(ctx, season)
		}},
		{"G39", func(ctx context.Context) error {
			if err := seed(ctx, []any{"ZADD", "lb:{season:7}:global", 10, string(pA)}); err != nil {
				return err
			}
			return board.Checkpoint(ctx, season, "2026-05-01")
		}},

		// anticheat (go-redis ClusterClient, scripts)
		{"G40", func(ctx context.Context) error {
			return times(acfg.MaxActions+2, func() error { return ignore(lim.Hit(ctx, pA)) })
		}},
		{"G41", func(ctx context.Context) error {
			return times(acfg.MaxActions+2, func() error { return ignore(lim.HitTagged(ctx, pA)) })
		}},
		{"G42", func(ctx context.Context) error {
			return times(acfg.MaxStrikes, func() error { return ignore(lim.Strike(ctx, pA)) })
		}},
		{"G43", func(ctx context.Context) error {
			return times(acfg.MaxStrikes, func() error { return ignore(lim.StrikeOwn(ctx, pA)) })
		}},
		{"G44", func(ctx context.Context) error { return ignore3(lim.LoginAttempts(ctx, pA, clientIP)) }},
		{"G45", func(ctx context.Context) error { return ignore3(lim.LoginAttemptsPipelined(ctx, pA, clientIP)) }},
		{"G46", func(ctx context.Context) error { return lim.Ban(ctx, pA, "speedhack", time.Hour) }},
		{"G47", func(ctx context.Context) error { return lim.BanPipelined(ctx, pA, "speedhack", time.Hour) }},

		// inventory (valkey-go)
		{"G48", func(ctx context.Context) error { return inv.Trade(ctx, pA, pB, "sword", 1) }},
		{"G49", func(ctx context.Context) error { return inv.Craft(ctx, pA, "ore", 3, "sword") }},
		{"G50", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "wallet:p1001", "gold", 100}); err != nil {
				return err
			}
			return ignore(inv.PurchaseLegacy(ctx, pA, "gold", 30, "shield"))
		}},
		{"G51", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "player:{p1001}:wallet", "gold", 100}); err != nil {
				return err
			}
			return ignore(inv.Purchase(ctx, pA, "gold", 30, "shield"))
		}},
		{"G52", func(ctx context.Context) error { return ignore(inv.CompareLoadouts(ctx, pA, pB)) }},
		{"G53", func(ctx context.Context) error { return ignore(inv.Loadouts(ctx, pA, pB)) }},
		{"G54", func(ctx context.Context) error { return ignore(inv.SendGift(ctx, pA, pB, "skin-42")) }},
		{"G55", func(ctx context.Context) error { return ignore(inv.ClaimGift(ctx, pA, "skin-42")) }},
		{"G56", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "player:{p1001}:wallet", "gold", 100}); err != nil {
				return err
			}
			return inv.SpendAudited(ctx, pA, "gold", 30)
		}},
		{"G57", func(ctx context.Context) error {
			if err := seed(ctx, []any{"HSET", "player:{p1001}:wallet", "gold", 100}); err != nil {
				return err
			}
			return inv.Spend(ctx, pA, "gold", 30)
		}},
		{"G58", func(ctx context.Context) error { return inv.PurgeLegacy(ctx, pA) }},
		{"G59", func(ctx context.Context) error { return inv.Purge(ctx, pA) }},
		{"G60", func(ctx context.Context) error { return ignore(inv.Inventories(ctx, pA, pB)) }},
		{"G61", func(ctx context.Context) error {
			if err := seed(ctx, []any{"RPUSH", "shop:rotation:next", "bundle-9"}); err != nil {
				return err
			}
			return ignore(inv.RotateShop(ctx))
		}},
		{"G62", func(ctx context.Context) error {
			if err := seed(ctx, []any{"RPUSH", "shop:{rotation}:next", "bundle-9"}); err != nil {
				return err
			}
			return ignore(inv.RotateShopV2(ctx))
		}},

		// guild (redigo + redisc)
		{"G63", func(ctx context.Context) error { return guilds.AddMember(guildA, pA) }},
		{"G64", func(ctx context.Context) error { return guilds.AddMemberV2(guildA, pA) }},
		{"G65", func(ctx context.Context) error { return ignore(guilds.Merge(guildA, guildB)) }},
		{"G66", func(ctx context.Context) error { return ignore(guilds.AcceptApplicants(guildA)) }},
		{"G67", func(ctx context.Context) error { return ignore(guilds.Rivalry(guildA, guildB)) }},
		{"G68", func(ctx context.Context) error { return ignore(guilds.Card(guildA)) }},
		{"G69", func(ctx context.Context) error { return ignore(guilds.DepositLegacy(guildA, pA, 50)) }},
		{"G70", func(ctx context.Context) error { return ignore(guilds.Deposit(guildA, pA, 50)) }},
		{"G71", func(ctx context.Context) error {
			if err := seed(ctx, []any{"SET", "guildname:ironwolves", string(guildA)}); err != nil {
				return err
			}
			return guilds.Rename(guildA, "ironwolves", "steelwolves")
		}},
		{"G72", func(ctx context.Context) error {
			if err := seed(ctx, []any{"SET", "guildname:ironwolves", string(guildA)}); err != nil {
				return err
			}
			return guilds.Reserve(guildA, "ironwolves", "steelwolves")
		}},
		{"G73", func(ctx context.Context) error {
			if err := guilds.Post(guildA, "raid cleared"); err != nil {
				return err
			}
			if err := guilds.Post(guildB, "new member"); err != nil {
				return err
			}
			return ignore(guilds.Feeds([]ids.GuildID{guildA, guildB}, 10))
		}},
		{"G74", func(ctx context.Context) error {
			if err := guilds.Post(guildA, "raid cleared"); err != nil {
				return err
			}
			return ignore4(guilds.Overview(guildA))
		}},

		// chat (GLIDE cluster client)
		{"G75", func(ctx context.Context) error {
			return ch.SetPresence(ctx, map[ids.PlayerID]string{pA: "in-match", pB: "online"})
		}},
		{"G76", func(ctx context.Context) error { return ignore(ch.Presence(ctx, []ids.PlayerID{pA, pB})) }},
		{"G77", func(ctx context.Context) error { return ch.Whisper(ctx, roomA, pA, pB, "gg") }},
		{"G78", func(ctx context.Context) error { return ch.Post(ctx, roomA, pA, "gg") }},
		{"G79", func(ctx context.Context) error {
			return ch.Broadcast(ctx, []ids.RoomID{roomA, roomB}, pA, "maintenance at 04:00")
		}},
		{"G80", func(ctx context.Context) error { return ignore(ch.OnlineFriends(ctx, pA, "eu")) }},
		{"G81", func(ctx context.Context) error { return ignore(ch.OnlineMembers(ctx, roomA)) }},
		{"G82", func(ctx context.Context) error {
			if err := ch.Post(ctx, roomA, pA, "gg"); err != nil {
				return err
			}
			return ch.ArchiveLegacy(ctx, roomA)
		}},
		{"G83", func(ctx context.Context) error {
			if err := ch.Post(ctx, roomA, pA, "gg"); err != nil {
				return err
			}
			return ch.Archive(ctx, roomA)
		}},
		{"G84", func(ctx context.Context) error { return ignore(ch.MarkRead(ctx, roomA, pA, 12)) }},
		{"G85", func(ctx context.Context) error { return ignore(ch.MarkRoomRead(ctx, roomA, pA, 12)) }},
		{"G86", func(ctx context.Context) error {
			if err := ch.Post(ctx, roomA, pA, "gg"); err != nil {
				return err
			}
			return ignore(ch.DeleteRoom(ctx, roomA))
		}},
		{"G87", func(ctx context.Context) error { return ignore(ch.RefreshTrending(ctx)) }},
		{"G88", func(ctx context.Context) error { return ignore(ch.RefreshTrendingTagged(ctx)) }},
	}

	flush := func() {
		err := cluster.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error {
			return c.FlushAll(ctx).Err()
		})
		if err != nil {
			log.Fatalf("flush: %v", err)
		}
	}
	var results strings.Builder
	for _, c := range cases {
		flush()
		line := c.id + " ok"
		if err := safely(ctx, c.run); err != nil {
			line = c.id + " error: " + oneLine(err.Error())
		}
		fmt.Println(line)
		results.WriteString(line + "\n")
	}
	flush()
	if *outPath != "" {
		if err := os.WriteFile(*outPath, []byte(results.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func safely(ctx context.Context, f func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return f(ctx)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
