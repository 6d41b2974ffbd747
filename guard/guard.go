// Package guard checks Redis Cluster's slot rules inside go-redis, at run
// time, on any client: tests and staging on one node then fail (or report)
// the way a cluster would, for the keys the data decides.
//
//	rdb := redis.NewClient(&redis.Options{Addr: addr})
//	rdb.AddHook(guard.New(guard.Options{}))
//	err := rdb.MGet(ctx, "user:1:a", "user:2:a").Err()
//	// CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))
//
// For every command it finds the keys with the command table from the
// server's key specs (no round trip), and for every transaction (TxPipeline,
// TxPipelined, Watch's) all the keys across its commands; scripts (EVAL,
// EVALSHA, FCALL) by their declared keys. The slots are computed as the
// server computes them (slotcalc). crossslot's analyzer proves what the code
// fixes; the guard checks what the data decides.
package guard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/internal/commands"
	"github.com/crossslot/crossslot/slotcalc"
)

// A Mode says what the guard does with a command whose keys cross slots.
type Mode int

const (
	// Fail does not send the command: it fails with an error that reads
	// like the server's CROSSSLOT (for tests).
	Fail Mode = iota
	// Report sends the command and passes the violation to Options.Report
	// (for staging and canaries).
	Report
)

// Options configure a guard.
type Options struct {
	Mode Mode
	// Report receives every violation in Report mode, and malformed tags
	// ({}, an unclosed '{') in both modes. Optional in Fail mode.
	Report func(Violation)
	// SampleRatio is the fraction of commands checked in Report mode, like
	// Redis 8's cluster-compatibility-sample-ratio; 0 means all. Fail mode
	// checks every command.
	SampleRatio float64
	// Caller records the file:line that sent the command (a few hundred
	// nanoseconds per violation, none otherwise).
	Caller bool
}

// A Violation is a command, or a transaction, that a cluster would refuse,
// or a key with a malformed tag.
type Violation struct {
	Command string   // "MGET", or "MULTI/EXEC" for a transaction
	Keys    []string // the two keys on different slots, or the key with a malformed tag
	Slots   []int
	Problem string // "crossslot", "emptytag" or "unclosedtag"
	Caller  string // file:line, when Options.Caller is set
}

// Error is the violation as a Fail-mode guard returns it: it reads like the
// server's CROSSSLOT error and matches redis.ErrCrossSlot with errors.Is.
type Error struct{ Violation }

func (e *Error) Error() string {
	return "CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: " + e.Violation.String() + ")"
}

// Is makes errors.Is(err, redis.ErrCrossSlot) hold.
func (e *Error) Is(target error) bool { return target == redis.ErrCrossSlot }

func (v Violation) String() string {
	var s string
	switch v.Problem {
	case "crossslot":
		s = fmt.Sprintf("%s keys %q (slot %d) and %q (slot %d)", v.Command, v.Keys[0], v.Slots[0], v.Keys[1], v.Slots[1])
	case "emptytag":
		s = fmt.Sprintf("%s key %q has an empty hash tag {}, so the whole key is hashed", v.Command, v.Keys[0])
	case "unclosedtag":
		s = fmt.Sprintf("%s key %q has a '{' with no '}' after it, so the whole key is hashed", v.Command, v.Keys[0])
	}
	if v.Caller != "" {
		s += " at " + v.Caller
	}
	return s
}

// New returns a hook for rdb.AddHook, on any go-redis v9 client.
func New(opts Options) redis.Hook {
	return &hook{opts: opts}
}

type hook struct{ opts Options }

func (h *hook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.sampled() {
			if err := h.check(cmd.Args(), nil); err != nil {
				cmd.SetErr(err)
				return err
			}
		}
		return next(ctx, cmd)
	}
}

func (h *hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if !h.sampled() {
			return next(ctx, cmds)
		}
		if isTransaction(cmds) {
			// One MULTI/EXEC: every key of every command on one slot.
			var tx txState
			for _, cmd := range cmds[1 : len(cmds)-1] {
				if err := h.check(cmd.Args(), &tx); err != nil {
					for _, c := range cmds {
						c.SetErr(err)
					}
					return err
				}
			}
			return next(ctx, cmds)
		}
		// A plain pipeline is split per node: each command on its own.
		for _, cmd := range cmds {
			if err := h.check(cmd.Args(), nil); err != nil {
				cmd.SetErr(err)
				return err
			}
		}
		return next(ctx, cmds)
	}
}

func isTransaction(cmds []redis.Cmder) bool {
	return len(cmds) >= 2 && strings.EqualFold(cmds[0].Name(), "multi") && strings.EqualFold(cmds[len(cmds)-1].Name(), "exec")
}

func (h *hook) sampled() bool {
	r := h.opts.SampleRatio
	return h.opts.Mode == Fail || r <= 0 || r >= 1 || rand.Float64() < r
}

// txState is a transaction's first key so far.
type txState struct {
	key  string
	slot int
	set  bool
}

// check finds the keys of one command and reports, or returns in Fail mode,
// the first pair on different slots: within the command, or against the
// transaction's first key. Single-key commands take no allocation.
func (h *hook) check(args []interface{}, tx *txState) error {
	if len(args) == 0 {
		return nil
	}
	name, ok := args[0].(string)
	if !ok {
		return nil
	}
	cmd, ok := lookup(name)
	if !ok {
		return nil
	}
	if k, ok := singleKey(cmd, args); ok {
		return h.judge(cmd.Name, []string{k}, tx)
	}
	argv := make([]commands.Arg, len(args))
	for i, a := range args {
		argv[i].Text, argv[i].Known = argText(a)
	}
	pos, ok := cmd.Keys(argv)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(pos))
	for _, p := range pos {
		if !argv[p].Known {
			return nil
		}
		keys = append(keys, argv[p].Text)
	}
	return h.judge(cmd.Name, keys, tx)
}

// singleKey reads the key of a command that takes one key, at a fixed
// position, without allocating.
func singleKey(cmd commands.Command, args []interface{}) (string, bool) {
	if cmd.MultiKey() || len(cmd.KeySpecs) != 1 {
		return "", false
	}
	s := cmd.KeySpecs[0]
	if s.Keyword != "" || s.KeyNum || s.LastKey != 0 || s.Index >= len(args) {
		return "", false
	}
	k, ok := args[s.Index].(string)
	return k, ok
}

// judge checks keys' tags and slots.
func (h *hook) judge(command string, keys []string, tx *txState) error {
	for _, k := range keys {
		if problem := tagProblem(k); problem != "" && h.opts.Report != nil {
			h.opts.Report(h.violation(command, problem, []string{k}, []int{slotcalc.Slot(k)}))
		}
	}
	var first string
	var firstSlot int
	haveFirst := false
	if tx != nil && tx.set {
		first, firstSlot, haveFirst = tx.key, tx.slot, true
	}
	for _, k := range keys {
		s := slotcalc.Slot(k)
		if !haveFirst {
			first, firstSlot, haveFirst = k, s, true
			if tx != nil {
				tx.key, tx.slot, tx.set = k, s, true
			}
			continue
		}
		if s == firstSlot {
			continue
		}
		name := command
		if tx != nil {
			name = "MULTI/EXEC " + command
		}
		v := h.violation(name, "crossslot", []string{first, k}, []int{firstSlot, s})
		if h.opts.Mode == Report {
			if h.opts.Report != nil {
				h.opts.Report(v)
			}
			return nil
		}
		return &Error{v}
	}
	return nil
}

func (h *hook) violation(command, problem string, keys []string, slots []int) Violation {
	v := Violation{Command: command, Keys: keys, Slots: slots, Problem: problem}
	if h.opts.Caller {
		v.Caller = caller()
	}
	return v
}

// caller is the first frame outside go-redis and this file.
func caller() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if f.File != thisFile && !strings.Contains(f.File, "/github.com/redis/go-redis/") {
			return f.File + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()

// tagProblem says whether a key's tag is malformed: "{}" first, or a '{'
// with no '}' after it.
func tagProblem(k string) string {
	open := strings.IndexByte(k, '{')
	if open < 0 {
		return ""
	}
	close := strings.IndexByte(k[open+1:], '}')
	switch {
	case close < 0:
		return "unclosedtag"
	case close == 0:
		return "emptytag"
	}
	return ""
}

// lower holds the command table by lower-case name, as go-redis sends names,
// so that the common lookup does not allocate.
var lower = func() map[string]commands.Command {
	m := make(map[string]commands.Command, len(commands.Table))
	for name := range commands.Table {
		c, _ := commands.Lookup(name)
		m[strings.ToLower(name)] = c
	}
	return m
}()

func lookup(name string) (commands.Command, bool) {
	if c, ok := lower[name]; ok {
		return c, true
	}
	c, ok := lower[strings.ToLower(name)]
	return c, ok
}

// argText is an argument as the server receives it, for keywords, counts
// and keys.
func argText(a interface{}) (string, bool) {
	switch a := a.(type) {
	case string:
		return a, true
	case []byte:
		return string(a), true
	case int:
		return strconv.Itoa(a), true
	case int64:
		return strconv.FormatInt(a, 10), true
	case uint64:
		return strconv.FormatUint(a, 10), true
	case float64:
		return strconv.FormatFloat(a, 'f', -1, 64), true
	case fmt.Stringer:
		return a.String(), true
	}
	return "", false
}
