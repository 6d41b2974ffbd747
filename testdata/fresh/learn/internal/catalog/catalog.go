// Package catalog owns courses and enrollments. The catalog team runs on go-redis.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/learn/internal/ids"
	"example.com/learn/internal/keys"
)

// Options configures a Store.
type Options struct {
	// Namespace prefixes every key, e.g. "lrn".
	Namespace keys.Space
	// EnrollTTL expires an enrollment that was never started.
	EnrollTTL time.Duration
}

// Store is the catalog's Redis access.
type Store struct {
	rdb *redis.ClusterClient
	ns  keys.Space
	ttl time.Duration
}

// New returns a Store on a cluster client.
func New(rdb *redis.ClusterClient, opts Options) *Store {
	if opts.EnrollTTL == 0 {
		opts.EnrollTTL = 30 * 24 * time.Hour
	}
	return &Store{rdb: rdb, ns: opts.Namespace, ttl: opts.EnrollTTL}
}

// legacy layout, from before the cluster: "lrn:course:<id>:<field>".
func (s *Store) courseKey(id ids.CourseID, field string) string {
	return s.ns.Join("course", string(id), field)
}

// cluster layout: "lrn:course:{<id>}:<field>".
func (s *Store) course(id ids.CourseID, field ...string) string {
	return s.ns.Tagged("course", string(id), field...)
}

func (s *Store) userCourses(u ids.UserID) string {
	return s.ns.Tagged("user", string(u), "courses")
}

func (s *Store) lastSeenKey(u string) string { return fmt.Sprintf("%s:seen:%s", s.ns, u) }

// EnrollmentCounts reads the enrolled counter of each course for the catalog page.
func (s *Store) EnrollmentCounts(ctx context.Context, courses []ids.CourseID) (map[ids.CourseID]int64, error) {
	// case E1: crossslot
	vals, err := s.rdb.MGet(ctx, keys.Map(courses, func(c ids.CourseID) string {
		return s.courseKey(c, "enrolled")
	})...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[ids.CourseID]int64, len(courses))
	for i, v := range vals {
		if str, ok := v.(string); ok {
			n, _ := strconv.ParseInt(str, 10, 64)
			out[courses[i]] = n
		}
	}
	return out, nil
}

// CourseCard reads what the course card shows.
func (s *Store) CourseCard(ctx context.Context, id ids.CourseID) (title string, enrolled int64, err error) {
	// case E2: none
	vals, err := s.rdb.MGet(ctx, s.course(id, "title"), s.course(id, "enrolled")).Result()
	if err != nil {
		return "", 0, err
	}
	if t, ok := vals[0].(string); ok {
		title = t
	}
	if n, ok := vals[1].(string); ok {
		enrolled, _ = strconv.ParseInt(n, 10, 64)
	}
	return title, enrolled, nil
}

// Enroll adds a learner to a course and the course to the learner, atomically.
func (s *Store) Enroll(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E3: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, s.course(c, "students"), string(u))
		p.Incr(ctx, s.course(c, "enrolled"))
		p.SAdd(ctx, s.userCourses(u), string(c))
		p.Expire(ctx, s.userCourses(u), s.ttl)
		return nil
	})
	return err
}

// EnrollMany enrolls one learner in a bundle of courses. Not atomic: each write
// stands alone and is retried by the bundle job.
func (s *Store) EnrollMany(ctx context.Context, u ids.UserID, cs []ids.CourseID) error {
	// case E4: none
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, c := range cs {
			p.SAdd(ctx, s.course(c, "students"), string(u))
			p.Incr(ctx, s.course(c, "enrolled"))
			p.SAdd(ctx, s.userCourses(u), string(c))
		}
		return nil
	})
	return err
}

// Unenroll removes a learner, watching both sets so a concurrent enroll is not lost.
func (s *Store) Unenroll(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E5: crossslot
	students, mine := s.course(c, "students"), s.userCourses(u)
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if ok, err := tx.SIsMember(ctx, students, string(u)).Result(); err != nil || !ok {
			return err
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.SRem(ctx, students, string(u))
			p.Decr(ctx, s.course(c, "enrolled"))
			return nil
		})
		return err
	}, students, mine)
}

// ErrCourseFull is returned when no seat is left.
var ErrCourseFull = errors.New("catalog: course is full")

// ReserveSeat takes one seat of a capped course.
func (s *Store) ReserveSeat(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E6: none
	seats := s.course(c, "seats")
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		left, err := tx.Get(ctx, seats).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if left <= 0 {
			return ErrCourseFull
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Decr(ctx, seats)
			p.SAdd(ctx, s.course(c, "students"), string(u))
			p.Incr(ctx, s.course(c, "enrolled"))
			return nil
		})
		return err
	}, seats)
}

// ArchiveRoster moves a finished course's roster to the archive namespace.
func (s *Store) ArchiveRoster(ctx context.Context, c ids.CourseID) error {
	// case E7: crossslot
	return s.rdb.Rename(ctx, s.course(c, "students"), s.ns.Join("archive", string(c), "students")).Err()
}

// SnapshotRoster keeps a copy of the roster when a cohort closes.
func (s *Store) SnapshotRoster(ctx context.Context, c ids.CourseID, cohort int) error {
	// case E8: none
	dst := s.course(c, "students", "cohort", strconv.Itoa(cohort))
	return s.rdb.Copy(ctx, s.course(c, "students"), dst, 0, true).Err()
}

// SharedStudents lists learners enrolled in both courses (for bundle offers).
func (s *Store) SharedStudents(ctx context.Context, a, b ids.CourseID) ([]string, error) {
	// case E9: crossslot
	return s.rdb.SInter(ctx, s.course(a, "students"), s.course(b, "students")).Result()
}

// CohortOverlap lists learners who sat in two cohorts of one course.
func (s *Store) CohortOverlap(ctx context.Context, c ids.CourseID, x, y int) ([]string, error) {
	// case E10: none
	return s.rdb.SInter(ctx,
		s.course(c, "students", "cohort", strconv.Itoa(x)),
		s.course(c, "students", "cohort", strconv.Itoa(y)),
	).Result()
}

// RosterByProgress returns the roster, best progress first.
func (s *Store) RosterByProgress(ctx context.Context, c ids.CourseID) ([]string, error) {
	// case E11: sortpattern
	return s.rdb.Sort(ctx, s.course(c, "students"), &redis.Sort{
		By:    s.ns.Join("pct", "*"),
		Order: "DESC",
	}).Result()
}

// RosterAlpha returns the roster sorted by user id.
func (s *Store) RosterAlpha(ctx context.Context, c ids.CourseID) ([]string, error) {
	// case E12: none
	return s.rdb.Sort(ctx, s.course(c, "students"), &redis.Sort{Alpha: true}).Result()
}

// StudentsLastSeen reads when each enrolled learner was last seen.
func (s *Store) StudentsLastSeen(ctx context.Context, c ids.CourseID) (map[string]string, error) {
	// case E13: crossslot?
	members, err := s.rdb.SMembers(ctx, s.course(c, "students")).Result()
	if err != nil || len(members) == 0 {
		return nil, err
	}
	vals, err := s.rdb.MGet(ctx, keys.Map(members, s.lastSeenKey)...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(members))
	for i, v := range vals {
		if str, ok := v.(string); ok {
			out[members[i]] = str
		}
	}
	return out, nil
}

// Titles reads course titles for a search result page.
func (s *Store) Titles(ctx context.Context, courses []ids.CourseID) ([]string, error) {
	// case E14: none
	cmds := make([]*redis.StringCmd, len(courses))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, c := range courses {
			cmds[i] = p.Get(ctx, s.course(c, "title"))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]string, len(cmds))
	for i, cmd := range cmds {
		out[i] = cmd.Val()
	}
	return out, nil
}

// WatchCourses follows the announcement channels of several courses.
func (s *Store) WatchCourses(ctx context.Context, cs ...ids.CourseID) (*redis.PubSub, error) {
	// case E15: shardedpubsub
	chans := keys.Map(cs, func(c ids.CourseID) string { return s.ns.Join("announce", string(c)) })
	ps := s.rdb.SSubscribe(ctx, chans...)
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// WatchCourse follows one course's announcements and its staff channel.
func (s *Store) WatchCourse(ctx context.Context, c ids.CourseID) (*redis.PubSub, error) {
	// case E16: none
	ps := s.rdb.SSubscribe(ctx, s.course(c, "announce"), s.course(c, "staff"))
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	return ps, nil
}

// TrendingUnion builds the "trending in your topics" board from several courses' view counters.
func (s *Store) TrendingUnion(ctx context.Context, dst string, cs []ids.CourseID) (int64, error) {
	// case E77: crossslot
	z := &redis.ZStore{Aggregate: "SUM"}
	for _, c := range cs {
		z.Keys = append(z.Keys, s.course(c, "views"))
	}
	return s.rdb.ZUnionStore(ctx, s.ns.Join("trending", dst), z).Result()
}

// CourseTrending folds a course's daily view boards into its weekly board.
func (s *Store) CourseTrending(ctx context.Context, c ids.CourseID, days int) (int64, error) {
	// case E78: none
	z := &redis.ZStore{Aggregate: "SUM"}
	for d := range days {
		z.Keys = append(z.Keys, s.course(c, "views", "day", strconv.Itoa(d)))
	}
	return s.rdb.ZUnionStore(ctx, s.course(c, "views", "week"), z).Result()
}
