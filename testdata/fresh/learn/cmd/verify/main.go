//go:build verify

// Command verify runs every labelled function of the service against a live
// three-master cluster, flushing it between cases, and prints one line a case:
// "ID ok" or "ID error: <text>".
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"

	"example.com/learn/internal/catalog"
	"example.com/learn/internal/certs"
	"example.com/learn/internal/ids"
	"example.com/learn/internal/leaderboard"
	"example.com/learn/internal/payouts"
	"example.com/learn/internal/progress"
	"example.com/learn/internal/quiz"
)

// services and wire are cmd/learnd's, copied: the same clients, prefixes and options.
type services struct {
	Catalog  *catalog.Store
	Progress *progress.Tracker
	Quiz     *quiz.Service
	Certs    *certs.Registry
	Board    *leaderboard.Board
	Payouts  *payouts.Ledger

	closers []func()
}

func (s *services) Close() {
	for _, c := range s.closers {
		c()
	}
}

func wire(addrs []string) (*services, error) {
	s := &services{}

	cat := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, ReadTimeout: 2 * time.Second})
	s.closers = append(s.closers, func() { cat.Close() })
	s.Catalog = catalog.New(cat, catalog.Options{Namespace: "lrn", EnrollTTL: 90 * 24 * time.Hour})

	pay := goredis.NewUniversalClient(&goredis.UniversalOptions{Addrs: addrs})
	s.closers = append(s.closers, func() { pay.Close() })
	s.Payouts = payouts.NewLedger(pay, payouts.Config{Namespace: "pay", LegacyDB: 3})

	rc, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, rc.Close)
	s.Progress = progress.NewTracker(rc, "prg:")
	s.Quiz = quiz.NewService(rueidiscompat.NewAdapter(rc), quiz.KeyScheme{Prefix: "qz:"})

	cluster := &redisc.Cluster{
		StartupNodes: addrs,
		DialOptions:  []redis.DialOption{redis.DialConnectTimeout(time.Second)},
		CreatePool: func(addr string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     8,
				IdleTimeout: time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", addr, opts...) },
			}, nil
		},
	}
	if err := cluster.Refresh(); err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() { cluster.Close() })
	s.Certs = certs.NewRegistry(cluster, "crt")

	cfg := config.NewClusterClientConfiguration()
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return nil, err
		}
		p, _ := strconv.Atoi(port)
		cfg = cfg.WithAddress(&config.NodeAddress{Host: host, Port: p})
	}
	g, err := glide.NewClusterClient(cfg)
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, g.Close)
	s.Board = leaderboard.NewBoard(g, "lb")
	return s, nil
}

type testCase struct {
	id   string
	seed []string // redis commands, space separated, run through the admin client
	run  func(ctx context.Context) error
}

func seq[T any](xs ...T) func(func(T) bool) { return slices.Values(xs) }

func main() {
	addrList := flag.String("cluster", "127.0.0.1:7701,127.0.0.1:7702,127.0.0.1:7703", "cluster nodes")
	outPath := flag.String("out", "", "also write the case lines to this file (GLIDE's core logs to stdout)")
	flag.Parse()
	var out io.Writer = io.Discard
	if *outPath != "" {
		f, err := os.Create(*outPath)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	report := func(format string, a ...any) {
		fmt.Printf(format, a...)
		fmt.Fprintf(out, format, a...)
	}
	addrs := strings.Split(*addrList, ",")
	s, err := wire(addrs)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	admin := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs})
	defer admin.Close()

	const (
		u1, u2, u3 = ids.UserID("u1001"), ids.UserID("u2002"), ids.UserID("u3003")
		c1, c2, c3 = ids.CourseID("go-101"), ids.CourseID("rust-202"), ids.CourseID("sql-303")
		l1         = ids.LessonID("l7")
		q1         = ids.QuizID("q55")
		a1, a2     = ids.AttemptID("a9001"), ids.AttemptID("a9002")
		i1, i2, i3 = ids.InstructorID("i71"), ids.InstructorID("i82"), ids.InstructorID("i93")
	)
	now := time.Unix(1760000000, 0)
	cert := func(id ids.CertID, u ids.UserID) certs.Cert {
		return certs.Cert{ID: id, User: u, Course: c1, Issued: now}
	}
	courses := []ids.CourseID{c1, c2, c3}
	instructors := []ids.InstructorID{i1, i2, i3}

	cases := []testCase{
		// catalog: go-redis ClusterClient
		{"E1", nil, func(ctx context.Context) error { _, err := s.Catalog.EnrollmentCounts(ctx, courses); return err }},
		{"E2", nil, func(ctx context.Context) error { _, _, err := s.Catalog.CourseCard(ctx, c1); return err }},
		{"E3", nil, func(ctx context.Context) error { return s.Catalog.Enroll(ctx, u1, c1) }},
		{"E4", nil, func(ctx context.Context) error { return s.Catalog.EnrollMany(ctx, u1, courses) }},
		{"E5", []string{"SADD lrn:course:{go-101}:students u1001"}, func(ctx context.Context) error { return s.Catalog.Unenroll(ctx, u1, c1) }},
		{"E6", []string{"SET lrn:course:{go-101}:seats 10"}, func(ctx context.Context) error { return s.Catalog.ReserveSeat(ctx, u1, c1) }},
		{"E7", []string{"SADD lrn:course:{go-101}:students u1001"}, func(ctx context.Context) error { return s.Catalog.ArchiveRoster(ctx, c1) }},
		{"E8", []string{"SADD lrn:course:{go-101}:students u1001"}, func(ctx context.Context) error { return s.Catalog.SnapshotRoster(ctx, c1, 3) }},
		{"E9", nil, func(ctx context.Context) error { _, err := s.Catalog.SharedStudents(ctx, c1, c2); return err }},
		{"E10", nil, func(ctx context.Context) error { _, err := s.Catalog.CohortOverlap(ctx, c1, 1, 2); return err }},
		{"E11", []string{"SADD lrn:course:{go-101}:students u1001 u2002"}, func(ctx context.Context) error { _, err := s.Catalog.RosterByProgress(ctx, c1); return err }},
		{"E12", []string{"SADD lrn:course:{go-101}:students u1001 u2002"}, func(ctx context.Context) error { _, err := s.Catalog.RosterAlpha(ctx, c1); return err }},
		{"E13", []string{"SADD lrn:course:{go-101}:students u1001 u2002 u3003"}, func(ctx context.Context) error { _, err := s.Catalog.StudentsLastSeen(ctx, c1); return err }},
		{"E14", nil, func(ctx context.Context) error { _, err := s.Catalog.Titles(ctx, courses); return err }},
		{"E15", nil, func(ctx context.Context) error {
			ps, err := s.Catalog.WatchCourses(ctx, c1, c2)
			if ps != nil {
				ps.Close()
			}
			return err
		}},
		{"E16", nil, func(ctx context.Context) error {
			ps, err := s.Catalog.WatchCourse(ctx, c1)
			if ps != nil {
				ps.Close()
			}
			return err
		}},
		{"E77", nil, func(ctx context.Context) error { _, err := s.Catalog.TrendingUnion(ctx, "week", courses); return err }},
		{"E78", nil, func(ctx context.Context) error { _, err := s.Catalog.CourseTrending(ctx, c1, 7); return err }},

		// progress: rueidis builders
		{"E17", nil, func(ctx context.Context) error { return s.Progress.CompleteLesson(ctx, u1, c1, l1) }},
		{"E18", nil, func(ctx context.Context) error { return s.Progress.Checkpoint(ctx, u1, c1, l1) }},
		{"E19", nil, func(ctx context.Context) error { _, err := s.Progress.ResumePoints(ctx, u1, courses); return err }},
		{"E20", nil, func(ctx context.Context) error { _, err := s.Progress.ResumePointsV2(ctx, u1, courses); return err }},
		{"E21", nil, func(ctx context.Context) error { _, err := s.Progress.MarkDone(ctx, u1, c1, l1); return err }},
		{"E22", nil, func(ctx context.Context) error { _, err := s.Progress.MarkDoneV2(ctx, u1, c1, l1); return err }},
		{"E23", nil, func(ctx context.Context) error { return s.Progress.ResetCourse(ctx, u1, c1) }},
		{"E24", nil, func(ctx context.Context) error { return s.Progress.ResetCourseEach(ctx, u1, c1) }},
		{"E25", []string{"SET prg:streak:u2002 12"}, func(ctx context.Context) error { return s.Progress.CarryStreak(ctx, u2, u1) }},
		{"E26", []string{"SADD prg:{u1001}:done:go-101 l1"}, func(ctx context.Context) error { return s.Progress.SnapshotDone(ctx, u1, c1) }},
		{"E27", []string{"SADD prg:done:u1001:go-101 l1 l2"}, func(ctx context.Context) error { return s.Progress.ClaimBadge(ctx, u1, c1, 2) }},
		{"E28", []string{"SADD prg:{u1001}:done:go-101 l1 l2"}, func(ctx context.Context) error { return s.Progress.ClaimBadgeV2(ctx, u1, c1, 2) }},
		{"E79", nil, func(ctx context.Context) error {
			return s.Progress.SaveResume(ctx, u1, map[ids.CourseID]ids.LessonID{c1: "l3", c2: "l9"})
		}},
		{"E80", nil, func(ctx context.Context) error {
			return s.Progress.SaveResumeV2(ctx, u1, map[ids.CourseID]ids.LessonID{c1: "l3", c2: "l9"})
		}},

		// quiz: rueidiscompat
		{"E29", nil, func(ctx context.Context) error { return s.Quiz.StartAttempt(ctx, q1, u1, a1) }},
		{"E30", nil, func(ctx context.Context) error { return s.Quiz.OpenAttempt(ctx, q1, u1, a1) }},
		{"E31", nil, func(ctx context.Context) error {
			_, err := s.Quiz.BestScores(ctx, q1, []ids.UserID{u1, u2, u3})
			return err
		}},
		{"E32", nil, func(ctx context.Context) error {
			_, err := s.Quiz.BestScoresV2(ctx, q1, []ids.UserID{u1, u2, u3})
			return err
		}},
		{"E33", nil, func(ctx context.Context) error { _, err := s.Quiz.MergePools(ctx, "practice-1", q1, "q66"); return err }},
		{"E34", nil, func(ctx context.Context) error { _, err := s.Quiz.BuildPool(ctx, q1); return err }},
		{"E35", []string{"HSET qz:quiz:{q55}:attempt:a9001 state open"}, func(ctx context.Context) error {
			return s.Quiz.SubmitAnswer(ctx, q1, a1, "1", "b")
		}},
		{"E36", []string{"HSET qz:quiz:{q55}:attempt:a9001 state open"}, func(ctx context.Context) error {
			return s.Quiz.SubmitAnswerV2(ctx, q1, a1, "1", "b")
		}},
		{"E37", []string{"HSET qz:quiz:{q55}:attempt:a9001 1 b 2 c", "HSET qz:answerkey:q55 1 b 2 d"}, func(ctx context.Context) error {
			_, err := s.Quiz.Grade(ctx, q1, a1)
			return err
		}},
		{"E38", []string{"HSET qz:quiz:{q55}:attempt:a9001 1 b 2 c", "HSET qz:quiz:{q55}:answerkey 1 b 2 d"}, func(ctx context.Context) error {
			_, err := s.Quiz.GradeV2(ctx, q1, a1)
			return err
		}},
		{"E39", []string{"SADD qz:quiz:q55:attempts a9001 a9002", "HSET qz:attempt:a9001 state done", "HSET qz:attempt:a9002 state open"}, func(ctx context.Context) error {
			_, err := s.Quiz.PurgeAttempts(ctx, q1)
			return err
		}},
		{"E40", []string{"HSET qz:attempt:a9001 state done", "HSET qz:attempt:a9002 state open"}, func(ctx context.Context) error {
			_, err := s.Quiz.AttemptStates(ctx, []ids.AttemptID{a1, a2})
			return err
		}},
		{"E83", []string{"HSET qz:attempt:a9001 state done"}, func(ctx context.Context) error { return s.Quiz.MigrateAttempt(ctx, q1, a1) }},
		{"E84", []string{"HSET qz:attempt:a9001 state done"}, func(ctx context.Context) error { return s.Quiz.CopyAttempt(ctx, q1, a1) }},

		// certs: redigo + redisc
		{"E41", nil, func(ctx context.Context) error { return s.Certs.Issue(cert("cX1", u1)) }},
		{"E42", nil, func(ctx context.Context) error { return s.Certs.IssueV2(cert("cX1", u1)) }},
		{"E43", nil, func(ctx context.Context) error {
			_, err := s.Certs.VerifyMany([]ids.CertID{"cX1", "cX2", "cX3"})
			return err
		}},
		{"E44", nil, func(ctx context.Context) error {
			_, err := s.Certs.VerifyEach([]ids.CertID{"cX1", "cX2", "cX3"})
			return err
		}},
		{"E45", []string{"HSET crt:cert:cX1 user u1001"}, func(ctx context.Context) error { _, err := s.Certs.Revoke("cX1", now); return err }},
		{"E46", []string{"HSET crt:{u1001}:cert:cX1 course go-101"}, func(ctx context.Context) error { _, err := s.Certs.RevokeV2(u1, "cX1", now); return err }},
		{"E47", []string{"HSET crt:cert:cX1 user u1001"}, func(ctx context.Context) error { return s.Certs.Reissue("cX1", "cX2") }},
		{"E48", []string{"HSET crt:{u1001}:cert:cX1 course go-101"}, func(ctx context.Context) error { return s.Certs.ReissueV2(u1, "cX1", "cX2") }},
		{"E49", []string{"SADD crt:user:u1001:certs cX1 cX2", "HSET crt:cert:cX1 user u1001", "HSET crt:cert:cX2 user u1001"}, func(ctx context.Context) error {
			_, err := s.Certs.Forget(u1)
			return err
		}},
		{"E50", []string{"SADD crt:{u1001}:certs cX1 cX2", "HSET crt:{u1001}:cert:cX1 course go-101"}, func(ctx context.Context) error {
			_, err := s.Certs.ForgetV2(u1)
			return err
		}},
		{"E81", []string{"SADD crt:{u1001}:certs cX1", "SADD crt:{u2002}:certs cX2"}, func(ctx context.Context) error {
			_, err := s.Certs.MergeAccounts(u1, u2)
			return err
		}},
		{"E82", []string{"SADD crt:{u1001}:certs cX1 cX2", "SADD crt:{u1001}:revoked cX2"}, func(ctx context.Context) error {
			_, err := s.Certs.Valid(u1)
			return err
		}},

		// leaderboard: GLIDE
		{"E51", nil, func(ctx context.Context) error {
			_, err := s.Board.MonthlyRollup(ctx, c1, []int{1, 2, 3, 4})
			return err
		}},
		{"E52", nil, func(ctx context.Context) error {
			_, err := s.Board.MonthlyRollupV2(ctx, c1, []int{1, 2, 3, 4})
			return err
		}},
		{"E53", []string{"SET lb:leader:go-101 u1001", "SET lb:leader:rust-202 u2002"}, func(ctx context.Context) error {
			_, err := s.Board.Leaders(ctx, courses)
			return err
		}},
		{"E54", nil, func(ctx context.Context) error { return s.Board.AwardXP(ctx, c1, u1, 50) }},
		{"E55", nil, func(ctx context.Context) error { return s.Board.AwardXPBatch(ctx, c1, u1, 50) }},
		{"E56", nil, func(ctx context.Context) error { _, err := s.Board.Bump(ctx, c1, u1, 50); return err }},
		{"E57", nil, func(ctx context.Context) error { _, err := s.Board.BumpCourse(ctx, c1, u1, 50); return err }},
		{"E58", []string{"ZADD lb:go-101:w5 1 u1001", "ZADD lb:rust-202:w5 1 u2002"}, func(ctx context.Context) error {
			_, err := s.Board.ResetBoards(ctx, courses, 5)
			return err
		}},
		{"E59", nil, func(ctx context.Context) error { _, err := s.Board.CommonTop(ctx, c1, c2); return err }},
		{"E60", nil, func(ctx context.Context) error { _, err := s.Board.ActiveTop(ctx, c1); return err }},
		{"E61", []string{"SADD lb:league:bronze u1001"}, func(ctx context.Context) error { _, err := s.Board.Promote(ctx, u1, "bronze", "silver"); return err }},
		{"E62", []string{"SADD lb:{go-101}:league:bronze u1001"}, func(ctx context.Context) error {
			_, err := s.Board.PromoteInCourse(ctx, c1, u1, "bronze", "silver")
			return err
		}},

		// payouts: go-redis UniversalClient (three addresses: a cluster client)
		{"E63", nil, func(ctx context.Context) error { return s.Payouts.Accrue(ctx, i1, c1, 1999) }},
		{"E64", nil, func(ctx context.Context) error { return s.Payouts.AccrueV2(ctx, i1, c1, 1999) }},
		{"E65", []string{"SET pay:payout:{i71}:pending 5000"}, func(ctx context.Context) error { return s.Payouts.ClosePeriod(ctx, i1, "2026-11") }},
		{"E66", []string{"SET pay:payout:{i71}:pending 5000"}, func(ctx context.Context) error { return s.Payouts.ClosePeriodV2(ctx, i1, "2026-11") }},
		{"E67", []string{"SET pay:payout:{i71}:pending 5000"}, func(ctx context.Context) error { _, err := s.Payouts.Settle(ctx, i1, 30); return err }},
		{"E68", []string{"SET pay:payout:{i71}:pending 5000"}, func(ctx context.Context) error { _, err := s.Payouts.SettleV2(ctx, i1, 30); return err }},
		{"E69", []string{"SET pay:payout:{i71}:closed:2026-11 5000"}, func(ctx context.Context) error { return s.Payouts.ArchivePeriod(ctx, i1, "2026-11") }},
		{"E70", []string{"SET pay:payout:{i71}:closed:2026-11 5000"}, func(ctx context.Context) error { return s.Payouts.ArchivePeriodV2(ctx, i1, "2026-11") }},
		{"E71", pendingSeed(instructors), func(ctx context.Context) error {
			got, err := s.Payouts.PendingInstructors(ctx)
			return countCheck("KEYS", got, err, len(instructors))
		}},
		{"E72", pendingSeed(instructors), func(ctx context.Context) error {
			got, err := s.Payouts.PendingInstructorsAll(ctx)
			return countCheck("SCAN on each master", got, err, len(instructors))
		}},
		{"E73", pendingSeed(instructors), func(ctx context.Context) error {
			_, err := s.Payouts.PendingTotals(ctx, seq(instructors...))
			return err
		}},
		{"E74", pendingSeed(instructors), func(ctx context.Context) error {
			_, err := s.Payouts.PendingTotalsEach(ctx, seq(instructors...))
			return err
		}},
		{"E75", pendingSeed(instructors), func(ctx context.Context) error { return s.Payouts.MergeInstructors(ctx, i1, i2) }},
		{"E76", pendingSeed(instructors), func(ctx context.Context) error { return s.Payouts.Adjust(ctx, i1, -100, "refund") }},
	}

	slices.SortStableFunc(cases, func(a, b testCase) int {
		x, _ := strconv.Atoi(a.id[1:])
		y, _ := strconv.Atoi(b.id[1:])
		return x - y
	})
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.id] {
			log.Fatalf("duplicate case %s", c.id)
		}
		seen[c.id] = true
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := flush(ctx, admin); err != nil {
			log.Fatalf("flush: %v", err)
		}
		for _, cmd := range c.seed {
			args := []any{}
			for _, f := range strings.Fields(cmd) {
				args = append(args, f)
			}
			if err := admin.Do(ctx, args...).Err(); err != nil {
				log.Fatalf("%s seed %q: %v", c.id, cmd, err)
			}
		}
		err := runCase(ctx, c.run)
		cancel()
		if err != nil {
			report("%s error: %s\n", c.id, strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			report("%s ok\n", c.id)
		}
	}
}

func pendingSeed(is []ids.InstructorID) []string {
	var out []string
	for n, i := range is {
		out = append(out, fmt.Sprintf("SET pay:payout:{%s}:pending %d", i, 1000*(n+1)))
	}
	return out
}

func countCheck(what string, got []string, err error, want int) error {
	if err != nil {
		return err
	}
	if len(got) != want {
		return fmt.Errorf("%s returned %d of the %d pending keys (one node's share)", what, len(got), want)
	}
	return nil
}

func runCase(ctx context.Context, f func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(ctx)
}

func flush(ctx context.Context, admin *goredis.ClusterClient) error {
	return admin.ForEachMaster(ctx, func(ctx context.Context, n *goredis.Client) error {
		return n.FlushAll(ctx).Err()
	})
}
