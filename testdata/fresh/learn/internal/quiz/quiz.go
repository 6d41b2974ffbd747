// Package quiz runs quizzes and attempts. The assessments team moved from
// go-redis to rueidis through its go-redis compatible adapter, so the code still
// reads like go-redis.
package quiz

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"

	"example.com/learn/internal/ids"
)

// KeyScheme names the quiz keys.
type KeyScheme struct {
	Prefix string // "qz:" in production
}

// Attempt is the legacy attempt hash: qz:attempt:<id>.
func (k KeyScheme) Attempt(id ids.AttemptID) string { return k.Prefix + "attempt:" + string(id) }

// Attempts is the legacy set of a quiz's attempts: qz:quiz:<id>:attempts.
func (k KeyScheme) Attempts(q ids.QuizID) string { return k.Prefix + "quiz:" + string(q) + ":attempts" }

// Best is the legacy best score of a learner: qz:best:<quiz>:<user>.
func (k KeyScheme) Best(q ids.QuizID, u ids.UserID) string {
	return fmt.Sprintf("%sbest:%s:%s", k.Prefix, q, u)
}

// Pool is the legacy question pool of a quiz.
func (k KeyScheme) Pool(q ids.QuizID) string { return k.Prefix + "pool:" + string(q) }

// AnswerKey is the legacy answer key of a quiz.
func (k KeyScheme) AnswerKey(q ids.QuizID) string { return k.Prefix + "answerkey:" + string(q) }

// In is the cluster layout: every key of a quiz under the quiz's tag.
func (k KeyScheme) In(q ids.QuizID, parts ...string) string {
	return k.Prefix + "quiz:{" + string(q) + "}:" + strings.Join(parts, ":")
}

// Service is the quiz service.
type Service struct {
	kv   rueidiscompat.Cmdable
	keys KeyScheme
}

// NewService returns a Service.
func NewService(kv rueidiscompat.Cmdable, ks KeyScheme) *Service { return &Service{kv: kv, keys: ks} }

// StartAttempt opens an attempt and lists it under its quiz, atomically.
func (s *Service) StartAttempt(ctx context.Context, q ids.QuizID, u ids.UserID, a ids.AttemptID) error {
	// case E29: crossslot
	_, err := s.kv.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.HSet(ctx, s.keys.Attempt(a), "user", string(u), "quiz", string(q), "state", "open")
		p.SAdd(ctx, s.keys.Attempts(q), string(a))
		return nil
	})
	return err
}

// OpenAttempt is StartAttempt on the cluster layout.
func (s *Service) OpenAttempt(ctx context.Context, q ids.QuizID, u ids.UserID, a ids.AttemptID) error {
	// case E30: none
	_, err := s.kv.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.HSet(ctx, s.keys.In(q, "attempt", string(a)), "user", string(u), "state", "open")
		p.SAdd(ctx, s.keys.In(q, "attempts"), string(a))
		return nil
	})
	return err
}

// BestScores reads each learner's best score of a quiz.
func (s *Service) BestScores(ctx context.Context, q ids.QuizID, users []ids.UserID) ([]any, error) {
	// case E31: crossslot
	ks := make([]string, len(users))
	for i, u := range users {
		ks[i] = s.keys.Best(q, u)
	}
	return s.kv.MGet(ctx, ks...).Result()
}

// BestScoresV2 reads the best scores from the quiz's hash.
func (s *Service) BestScoresV2(ctx context.Context, q ids.QuizID, users []ids.UserID) ([]any, error) {
	// case E32: none
	fields := make([]string, len(users))
	for i, u := range users {
		fields[i] = string(u)
	}
	return s.kv.HMGet(ctx, s.keys.In(q, "best"), fields...).Result()
}

// MergePools builds a practice quiz from the pools of other quizzes.
func (s *Service) MergePools(ctx context.Context, dst ids.QuizID, srcs ...ids.QuizID) (int64, error) {
	// case E33: crossslot
	from := make([]string, 0, len(srcs))
	for _, q := range srcs {
		from = append(from, s.keys.Pool(q))
	}
	return s.kv.SUnionStore(ctx, s.keys.Pool(dst), from...).Result()
}

// BuildPool rebuilds a quiz's pool from its difficulty buckets.
func (s *Service) BuildPool(ctx context.Context, q ids.QuizID) (int64, error) {
	// case E34: none
	return s.kv.SUnionStore(ctx, s.keys.In(q, "pool"),
		s.keys.In(q, "pool", "easy"),
		s.keys.In(q, "pool", "medium"),
		s.keys.In(q, "pool", "hard"),
	).Result()
}

// ErrClosed is returned for an answer to a closed attempt.
var ErrClosed = errors.New("quiz: attempt is closed")

// SubmitAnswer records an answer unless the attempt or the answer key changed meanwhile.
func (s *Service) SubmitAnswer(ctx context.Context, q ids.QuizID, a ids.AttemptID, question, answer string) error {
	// case E35: crossslot
	attempt := s.keys.In(q, "attempt", string(a))
	return s.kv.Watch(ctx, func(tx rueidiscompat.Tx) error {
		state, err := tx.HGet(ctx, attempt, "state").Result()
		if err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
		if state != "open" {
			return ErrClosed
		}
		_, err = tx.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
			p.HSet(ctx, attempt, "q:"+question, answer)
			return nil
		})
		return err
	}, attempt, s.keys.AnswerKey(q))
}

// SubmitAnswerV2 watches the attempt only.
func (s *Service) SubmitAnswerV2(ctx context.Context, q ids.QuizID, a ids.AttemptID, question, answer string) error {
	// case E36: none
	attempt := s.keys.In(q, "attempt", string(a))
	return s.kv.Watch(ctx, func(tx rueidiscompat.Tx) error {
		state, err := tx.HGet(ctx, attempt, "state").Result()
		if err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
		if state != "open" {
			return ErrClosed
		}
		_, err = tx.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
			p.HSet(ctx, attempt, "q:"+question, answer)
			p.SAdd(ctx, s.keys.In(q, "answered"), string(a))
			return nil
		})
		return err
	}, attempt)
}

// grade counts the answers of an attempt that match the answer key named in ARGV[1].
var grade = rueidiscompat.NewScript(`
local key = ARGV[1]
local score = 0
local answers = redis.call('HGETALL', KEYS[1])
for i = 1, #answers, 2 do
  if redis.call('HGET', key, answers[i]) == answers[i + 1] then score = score + 1 end
end
redis.call('HSET', KEYS[1], 'score', score)
return score
`)

// Grade scores an attempt against the quiz's answer key.
func (s *Service) Grade(ctx context.Context, q ids.QuizID, a ids.AttemptID) (int64, error) {
	// case E37: undeclaredkey
	return grade.Run(ctx, s.kv, []string{s.keys.In(q, "attempt", string(a))}, s.keys.AnswerKey(q)).Int64()
}

// gradeV2 takes the answer key as KEYS[2].
var gradeV2 = rueidiscompat.NewScript(`
local score = 0
local answers = redis.call('HGETALL', KEYS[1])
for i = 1, #answers, 2 do
  if redis.call('HGET', KEYS[2], answers[i]) == answers[i + 1] then score = score + 1 end
end
redis.call('HSET', KEYS[1], 'score', score)
return score
`)

// GradeV2 scores an attempt against the answer key stored with the quiz.
func (s *Service) GradeV2(ctx context.Context, q ids.QuizID, a ids.AttemptID) (int64, error) {
	// case E38: none
	return gradeV2.Run(ctx, s.kv, []string{s.keys.In(q, "attempt", string(a)), s.keys.In(q, "answerkey")}).Int64()
}

// PurgeAttempts deletes every attempt hash listed under a quiz (legacy layout).
func (s *Service) PurgeAttempts(ctx context.Context, q ids.QuizID) (int64, error) {
	// case E39: crossslot?
	list, err := s.kv.SMembers(ctx, s.keys.Attempts(q)).Result()
	if err != nil || len(list) == 0 {
		return 0, err
	}
	ks := make([]string, 0, len(list)+1)
	for _, a := range list {
		ks = append(ks, s.keys.Attempt(ids.AttemptID(a)))
	}
	ks = append(ks, s.keys.Attempts(q))
	return s.kv.Del(ctx, ks...).Result()
}

// AttemptStates reads the state of several attempts, one pipelined HGET each.
func (s *Service) AttemptStates(ctx context.Context, as []ids.AttemptID) ([]string, error) {
	// case E40: none
	cmds := make([]*rueidiscompat.StringCmd, len(as))
	_, err := s.kv.Pipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		for i, a := range as {
			cmds[i] = p.HGet(ctx, s.keys.Attempt(a), "state")
		}
		return nil
	})
	if err != nil && !rueidis.IsRedisNil(err) {
		return nil, err
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// MigrateAttempt moves an attempt hash from the legacy layout to the quiz's tag.
func (s *Service) MigrateAttempt(ctx context.Context, q ids.QuizID, a ids.AttemptID) error {
	// case E83: crossslot
	return s.kv.Rename(ctx, s.keys.Attempt(a), s.keys.In(q, "attempt", string(a))).Err()
}

// CopyAttempt moves an attempt hash to the quiz's tag field by field: read,
// write, then delete the old key.
func (s *Service) CopyAttempt(ctx context.Context, q ids.QuizID, a ids.AttemptID) error {
	// case E84: none
	old := s.keys.Attempt(a)
	fields, err := s.kv.HGetAll(ctx, old).Result()
	if err != nil || len(fields) == 0 {
		return err
	}
	if err := s.kv.HSet(ctx, s.keys.In(q, "attempt", string(a)), fields).Err(); err != nil {
		return err
	}
	return s.kv.Del(ctx, old).Err()
}
