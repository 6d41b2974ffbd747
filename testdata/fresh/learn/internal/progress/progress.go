// Package progress tracks lesson progress. The player team uses rueidis and its
// command builders.
package progress

import (
	"context"
	"errors"
	"strings"

	"github.com/redis/rueidis"

	"example.com/learn/internal/ids"
)

// Tracker records which lessons a learner finished and where to resume.
type Tracker struct {
	c      rueidis.Client
	prefix string // "prg:" in production
}

// NewTracker returns a Tracker. prefix ends with ':'.
func NewTracker(c rueidis.Client, prefix string) *Tracker {
	return &Tracker{c: c, prefix: prefix}
}

// done set, legacy layout: prg:done:<user>:<course>
func (t *Tracker) doneKey(u ids.UserID, c ids.CourseID) string {
	return t.prefix + "done:" + string(u) + ":" + string(c)
}

// learner-scoped keys, cluster layout: prg:{<user>}:<part>:<part>
func (t *Tracker) userKey(u ids.UserID, parts ...string) string {
	return t.prefix + "{" + string(u) + "}:" + strings.Join(parts, ":")
}

func (t *Tracker) streakKey(u ids.UserID) string { return t.prefix + "streak:" + string(u) }

func (t *Tracker) lessonCompletions(l ids.LessonID) string {
	return t.prefix + "lesson:" + string(l) + ":completions"
}

func execErr(resps []rueidis.RedisResult) error {
	for _, r := range resps {
		if err := r.Error(); err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
	}
	return nil
}

// CompleteLesson marks a lesson done and counts the completion, in one transaction.
func (t *Tracker) CompleteLesson(ctx context.Context, u ids.UserID, c ids.CourseID, l ids.LessonID) error {
	// case E17: crossslot
	b := t.c.B()
	return execErr(t.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Sadd().Key(t.doneKey(u, c)).Member(string(l)).Build(),
		b.Incr().Key(t.lessonCompletions(l)).Build(),
		b.Exec().Build(),
	))
}

// Checkpoint marks a lesson done and moves the resume point, in one transaction.
func (t *Tracker) Checkpoint(ctx context.Context, u ids.UserID, c ids.CourseID, l ids.LessonID) error {
	// case E18: none
	b := t.c.B()
	return execErr(t.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Sadd().Key(t.userKey(u, "done", string(c))).Member(string(l)).Build(),
		b.Set().Key(t.userKey(u, "last", string(c))).Value(string(l)).Build(),
		b.Exec().Build(),
	))
}

// ResumePoints returns the last lesson of each course, as the dashboard shows it.
func (t *Tracker) ResumePoints(ctx context.Context, u ids.UserID, cs []ids.CourseID) ([]string, error) {
	// case E19: crossslot
	ks := make([]string, 0, len(cs))
	for _, c := range cs {
		ks = append(ks, t.prefix+"last:"+string(u)+":"+string(c))
	}
	return t.c.Do(ctx, t.c.B().Mget().Key(ks...).Build()).AsStrSlice()
}

// ResumePointsV2 is ResumePoints on the cluster layout.
func (t *Tracker) ResumePointsV2(ctx context.Context, u ids.UserID, cs []ids.CourseID) ([]string, error) {
	// case E20: none
	ks := make([]string, 0, len(cs))
	for _, c := range cs {
		ks = append(ks, t.userKey(u, "last", string(c)))
	}
	vals, err := t.c.Do(ctx, t.c.B().Mget().Key(ks...).Build()).ToArray()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i], _ = v.ToString()
	}
	return out, nil
}

// markDone adds the lesson to the done set and bumps the set's counter.
var markDone = rueidis.NewLuaScript(`
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[1] .. ':count')
`)

// MarkDone runs markDone on the legacy done set.
func (t *Tracker) MarkDone(ctx context.Context, u ids.UserID, c ids.CourseID, l ids.LessonID) (int64, error) {
	// case E21: scriptslot
	return markDone.Exec(ctx, t.c, []string{t.doneKey(u, c)}, []string{string(l)}).AsInt64()
}

// MarkDoneV2 runs markDone on the cluster layout.
func (t *Tracker) MarkDoneV2(ctx context.Context, u ids.UserID, c ids.CourseID, l ids.LessonID) (int64, error) {
	// case E22: none
	return markDone.Exec(ctx, t.c, []string{t.userKey(u, "done", string(c))}, []string{string(l)}).AsInt64()
}

// ResetCourse forgets a learner's progress in a course, streak included.
func (t *Tracker) ResetCourse(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E23: crossslot
	return t.c.Do(ctx, t.c.B().Del().Key(
		t.userKey(u, "done", string(c)),
		t.userKey(u, "last", string(c)),
		t.streakKey(u),
	).Build()).Error()
}

// ResetCourseEach is ResetCourse with one DEL a key, pipelined.
func (t *Tracker) ResetCourseEach(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E24: none
	cmds := make(rueidis.Commands, 0, 3)
	for _, k := range []string{t.userKey(u, "done", string(c)), t.userKey(u, "last", string(c)), t.streakKey(u)} {
		cmds = append(cmds, t.c.B().Del().Key(k).Build())
	}
	return execErr(t.c.DoMulti(ctx, cmds...))
}

// CarryStreak gives a merged account the streak of the account it replaces.
func (t *Tracker) CarryStreak(ctx context.Context, from, to ids.UserID) error {
	// case E25: crossslot
	return t.c.Do(ctx, t.c.B().Copy().Source(t.streakKey(from)).Destination(t.streakKey(to)).Replace().Build()).Error()
}

// SnapshotDone keeps yesterday's done set for the daily digest.
func (t *Tracker) SnapshotDone(ctx context.Context, u ids.UserID, c ids.CourseID) error {
	// case E26: none
	src := t.userKey(u, "done", string(c))
	return t.c.Do(ctx, t.c.B().Copy().Source(src).Destination(src+":yesterday").Replace().Build()).Error()
}

// ErrNotFinished is returned when a badge is claimed too early.
var ErrNotFinished = errors.New("progress: course not finished")

// ClaimBadge awards the course badge once every lesson is done.
func (t *Tracker) ClaimBadge(ctx context.Context, u ids.UserID, c ids.CourseID, lessons int64) error {
	// case E27: crossslot
	badges := t.prefix + "badges:" + string(c)
	return t.c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key(t.doneKey(u, c), badges).Build()).Error(); err != nil {
			return err
		}
		n, err := d.Do(ctx, d.B().Scard().Key(t.doneKey(u, c)).Build()).AsInt64()
		if err != nil {
			return err
		}
		if n < lessons {
			return ErrNotFinished
		}
		return execErr(d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Sadd().Key(badges).Member(string(u)).Build(),
			d.B().Exec().Build(),
		))
	})
}

// ClaimBadgeV2 is ClaimBadge on the cluster layout: the badge lives with the learner.
func (t *Tracker) ClaimBadgeV2(ctx context.Context, u ids.UserID, c ids.CourseID, lessons int64) error {
	// case E28: none
	done := t.userKey(u, "done", string(c))
	return t.c.Dedicated(func(d rueidis.DedicatedClient) error {
		if err := d.Do(ctx, d.B().Watch().Key(done).Build()).Error(); err != nil {
			return err
		}
		n, err := d.Do(ctx, d.B().Scard().Key(done).Build()).AsInt64()
		if err != nil {
			return err
		}
		if n < lessons {
			return ErrNotFinished
		}
		return execErr(d.DoMulti(ctx,
			d.B().Multi().Build(),
			d.B().Sadd().Key(t.userKey(u, "badges")).Member(string(c)).Build(),
			d.B().Exec().Build(),
		))
	})
}

// SaveResume stores several resume points at once (the mobile app syncs them in bulk).
func (t *Tracker) SaveResume(ctx context.Context, u ids.UserID, last map[ids.CourseID]ids.LessonID) error {
	// case E79: crossslot
	cmd := t.c.B().Mset().KeyValue()
	for c, l := range last {
		cmd = cmd.KeyValue(t.prefix+"last:"+string(u)+":"+string(c), string(l))
	}
	return t.c.Do(ctx, cmd.Build()).Error()
}

// SaveResumeV2 is SaveResume on the cluster layout.
func (t *Tracker) SaveResumeV2(ctx context.Context, u ids.UserID, last map[ids.CourseID]ids.LessonID) error {
	// case E80: none
	cmd := t.c.B().Mset().KeyValue()
	for c, l := range last {
		cmd = cmd.KeyValue(t.userKey(u, "last", string(c)), string(l))
	}
	return t.c.Do(ctx, cmd.Build()).Error()
}
