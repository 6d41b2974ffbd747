// Package guardcore is what every client's guard checks, at run time: a
// command line's keys, found with the command table from the server's key
// specs (no round trip), on one slot; a transaction's keys across its
// commands on one slot; no malformed hash tag. The guards of go-redis
// (module github.com/crossslot/crossslot/guard), rueidis, valkey-go and
// redigo (modules of their own, so that each brings only its client) are
// thin adapters over it: the same modes, messages, sampling and Violation.
// It imports no client library.
package guardcore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/crossslot/crossslot/clustertarget"
	"github.com/crossslot/crossslot/internal/commands"
	"github.com/crossslot/crossslot/slotcalc"
)

// A Mode says what a guard does with a command whose keys cross slots.
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
	// Stats, when set, counts the violations by problem, with the last
	// call site: what a staging service logs or exports (see Stats).
	Stats *Stats
	// Target is what runs the cluster, as the analyzer's -crossslot.target
	// takes it ("redis:7.0", "valkey:9.0:db16"; see package clustertarget): what
	// it refuses besides CROSSSLOT (SORT patterns, databases). "" reads the
	// crossslot.conf nearest to the working directory, as the analyzer
	// reads the one nearest to a package (a test runs in its package's
	// directory), else target.Latest. A bad target, or a bad file, fails
	// every command with an error that says so.
	Target string
}

// A Violation is a command, or a transaction, that a cluster would refuse,
// or a key with a malformed tag.
type Violation struct {
	Command string   // "MGET", or "MULTI/EXEC" for a transaction's keys
	Keys    []string // the two keys on different slots, or the key with a malformed tag
	Slots   []int
	// KeyCommands, for a transaction's keys, is the command that sent
	// each ("INCRBY", "DECRBY"): a transaction's keys may come from two.
	KeyCommands []string
	// Problem is "crossslot", "emptytag", "unclosedtag" or "doubletag"; or
	// what else a
	// cluster refuses (see Refusal): "database" (SELECT n, MOVE, SWAPDB,
	// COPY ... DB n), "sortpattern" (SORT BY a pattern, SORT GET),
	// "shardedpubsub" (sharded channels on different slots), "keyspace"
	// (a subscription to keyspace notifications, or their configuration:
	// reported, never refused), "scriptkey"
	// (a key a script touches on another slot than its declared keys, or
	// with none declared).
	Problem string
	// Refusal is the cluster's error for the problems other than
	// crossslot and the tags: what a Fail-mode guard returns.
	Refusal string
	// Script is the command a script sends with the key, for scriptkey
	// ("INCR").
	Script string
	Caller string // file:line, when Options.Caller is set
}

func (v Violation) String() string {
	var s string
	switch v.Problem {
	case "database", "sortpattern":
		s = fmt.Sprintf("%s: %s", v.Command, v.Refusal)
	case "shardedpubsub":
		s = fmt.Sprintf("%s channels %q (slot %d) and %q (slot %d)", v.Command, v.Keys[0], v.Slots[0], v.Keys[1], v.Slots[1])
	case "scriptkey":
		if len(v.Keys) == 1 {
			s = fmt.Sprintf("%s script's %s key %q (slot %d), with no key declared", v.Command, v.Script, v.Keys[0], v.Slots[0])
		} else {
			s = fmt.Sprintf("%s script's %s key %q (slot %d) and the declared key %q (slot %d)", v.Command, v.Script, v.Keys[1], v.Slots[1], v.Keys[0], v.Slots[0])
		}
	case "crossslot":
		if len(v.KeyCommands) == 2 {
			s = fmt.Sprintf("%s keys %q (slot %d, %s) and %q (slot %d, %s)", v.Command, v.Keys[0], v.Slots[0], v.KeyCommands[0], v.Keys[1], v.Slots[1], v.KeyCommands[1])
		} else {
			s = fmt.Sprintf("%s keys %q (slot %d) and %q (slot %d)", v.Command, v.Keys[0], v.Slots[0], v.Keys[1], v.Slots[1])
		}
	case "emptytag":
		s = fmt.Sprintf("%s key %q has an empty hash tag {}, so the whole key is hashed", v.Command, v.Keys[0])
	case "unclosedtag":
		s = fmt.Sprintf("%s key %q has a '{' with no '}' after it, so the whole key is hashed", v.Command, v.Keys[0])
	case "keyspace":
		if len(v.Keys) == 0 {
			s = v.Command + " configures one node of a cluster: the others publish no notifications"
		} else {
			s = fmt.Sprintf("%s %q listens on one node of a cluster, and each node publishes the notifications of its own keys only", v.Command, v.Keys[0])
		}
	case "doubletag":
		s = fmt.Sprintf("%s key %q has a second hash tag, or a '{' inside its tag; only the first '{' to the first '}' counts (slot %d)", v.Command, v.Keys[0], v.Slots[0])
	}
	if v.Caller != "" {
		s += " at " + v.Caller
	}
	return s
}

// Error is a violation as a Fail-mode guard returns it: it reads like the
// server's CROSSSLOT error.
type Error struct{ Violation }

func (e *Error) Error() string {
	switch e.Problem {
	case "database", "sortpattern": // the refusal is the message: name the command only
		detail := e.Command
		if e.Caller != "" {
			detail += " at " + e.Caller
		}
		return e.Refusal + " (crossslot guard: " + detail + ")"
	case "shardedpubsub", "scriptkey":
		return e.Refusal + " (crossslot guard: " + e.Violation.String() + ")"
	}
	return "CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: " + e.Violation.String() + ")"
}

// Stats counts a guard's violations by problem; safe for concurrent use.
type Stats struct {
	mu       sync.Mutex
	problems map[string]Count
}

// A Count is how many violations of one problem a guard saw, and the last.
type Count struct {
	N    int
	Last Violation // with its call site
}

func (s *Stats) add(v Violation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.problems == nil {
		s.problems = map[string]Count{}
	}
	c := s.problems[v.Problem]
	c.N++
	c.Last = v
	s.problems[v.Problem] = c
}

// Snapshot returns the counts so far, by problem: like Redis 8's
// cluster_incompatible_ops, per problem and with the last call site.
func (s *Stats) Snapshot() map[string]Count {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Count, len(s.problems))
	for p, c := range s.problems {
		out[p] = c
	}
	return out
}

// A Checker checks command lines for one guard.
type Checker struct {
	opts   Options
	target clustertarget.Target
	err    error // a bad Target or crossslot.conf: every Check returns it
	// library are fragments of the paths of the client's files, and of the
	// adapter's: Caller skips their frames.
	library []string
}

// New returns a checker; library names the path fragments of the frames
// that are the client's or the guard's, not the caller's
// ("/github.com/redis/go-redis/").
func New(opts Options, library ...string) *Checker {
	c := &Checker{opts: opts, library: append(library, thisFile)}
	c.target, c.err = targetOf(opts.Target)
	if c.err != nil {
		c.err = fmt.Errorf("crossslot guard: %w", c.err)
	}
	return c
}

// targetOf reads Options.Target, or, when it is "", the crossslot.conf
// nearest to the working directory.
func targetOf(given string) (clustertarget.Target, error) {
	var s clustertarget.Setting
	if given != "" {
		if err := s.Set(given); err != nil {
			return clustertarget.Target{}, fmt.Errorf("Options.Target: %w", err)
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return clustertarget.Latest, nil // no working directory: no file to read
	}
	return s.For(dir)
}

// Sampled says whether to check this command: always in Fail mode, else
// by Options.SampleRatio.
func (c *Checker) Sampled() bool {
	r := c.opts.SampleRatio
	return c.opts.Mode == Fail || r <= 0 || r >= 1 || rand.Float64() < r
}

// A Tx is a transaction's first key so far; the zero Tx starts one.
type Tx struct {
	key     string
	command string // the command that sent key
	slot    int
	set     bool
}

// A Line is a command line as a client holds it, the command's name first.
type Line interface {
	Len() int
	// Text is argument i as the server receives it, when it is text or a
	// number.
	Text(i int) (string, bool)
	// String is argument i when it is a string, without converting.
	String(i int) (string, bool)
}

// Args is a go-redis or redigo command line.
type Args []interface{}

func (a Args) Len() int                       { return len(a) }
func (a Args) Text(i int) (string, bool)      { return argText(a[i]) }
func (a Args) String(i int) (string, bool)    { s, ok := a[i].(string); return s, ok }
func (s Strings) Len() int                    { return len(s) }
func (s Strings) Text(i int) (string, bool)   { return s[i], true }
func (s Strings) String(i int) (string, bool) { return s[i], true }

// Strings is a rueidis or valkey-go command line (Completed.Commands()).
type Strings []string

// Check finds the keys of one command and reports, or returns in Fail mode,
// the first pair on different slots: within the command, or against the
// transaction's first key (tx nil: not in a transaction). Single-key
// commands take no allocation.
func Check[L Line](c *Checker, line L, tx *Tx) error {
	if line.Len() == 0 {
		return nil
	}
	name, ok := line.String(0)
	if !ok {
		return nil
	}
	if c.err != nil {
		return c.err
	}
	if v, ok := refused(name, line, c.target); ok {
		return c.refuse(c.withCaller(v))
	}
	if strings.EqualFold(name, "SCRIPT") {
		loadedScript(line)
		return nil
	}
	if v, ok := keyspaceNotifications(name, line); ok {
		if c.opts.Report != nil || c.opts.Stats != nil {
			c.notice(c.withCaller(v))
		}
		return nil
	}
	cmd, ok := lookup(name)
	if !ok {
		return nil
	}
	if k, ok := singleKey(cmd, line); ok {
		return c.judge(cmd.Name, []string{k}, tx)
	}
	argv := argvOf(line)
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
	if err := c.judge(cmd.Name, keys, tx); err != nil || !isScriptCall(cmd.Name) {
		return err
	}
	texts := make([]string, len(argv))
	for i, a := range argv {
		if !a.Known {
			return nil
		}
		texts[i] = a.Text
	}
	return c.scriptKeys(cmd.Name, texts, keys)
}

// isScriptCall says whether a command runs a script whose text the guard
// may know.
func isScriptCall(name string) bool {
	switch name {
	case "EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO":
		return true
	}
	return false
}

// singleKey reads the key of a command that takes one key, at a fixed
// position, without allocating.
func singleKey[L Line](cmd commands.Command, line L) (string, bool) {
	if cmd.MultiKey() || len(cmd.KeySpecs) != 1 {
		return "", false
	}
	s := cmd.KeySpecs[0]
	if s.Keyword != "" || s.KeyNum || s.LastKey != 0 || s.Index >= line.Len() {
		return "", false
	}
	return line.String(s.Index)
}

// refused reads what a cluster refuses besides CROSSSLOT (commands.Refuses,
// and sharded channels on two slots). The names are compared first, without
// converting or allocating, as the common commands pass through here.
func refused[L Line](name string, line L, t clustertarget.Target) (Violation, bool) {
	upper := ""
	for _, n := range refusedNames {
		if len(n) == len(name) && strings.EqualFold(n, name) {
			upper = n
			break
		}
	}
	if upper == "" {
		return Violation{}, false
	}
	if upper == "SSUBSCRIBE" || upper == "SUNSUBSCRIBE" {
		first, _ := line.Text(1)
		for i := 2; i < line.Len(); i++ {
			ch, _ := line.Text(i)
			if a, b := slotcalc.Slot(first), slotcalc.Slot(ch); a != b {
				return Violation{Command: upper, Keys: []string{first, ch}, Slots: []int{a, b}, Problem: "shardedpubsub",
					Refusal: "CROSSSLOT Keys in request don't hash to the same slot"}, true
			}
		}
		return Violation{}, false
	}
	argv := argvOf(line)
	refusals, _ := commands.Refuses(argv, t)
	refusals = slices.DeleteFunc(refusals, func(r commands.Refusal) bool {
		return r.Problem == "database" && r.DB >= 0 && r.DB < t.DatabaseCount()
	})
	if len(refusals) == 0 {
		return Violation{}, false
	}
	r := refusals[0]
	v := Violation{Command: r.What, Problem: r.Problem, Refusal: r.Text}
	if r.Problem == "sortpattern" {
		v.Command = upper + " " + r.What
	}
	return v, true
}

// refusedNames are the commands refused reads, upper case.
var refusedNames = append([]string{"SSUBSCRIBE", "SUNSUBSCRIBE"}, commands.RefusedNames...)

// keyspaceNotifications reads a subscription to keyspace notifications,
// or their configuration (commands.KeyspaceEvents): a cluster node
// publishes the events of its own keys only, and a client subscribes, or
// configures, one node. The cluster refuses neither, so the guard only
// reports them. The names are compared first: the common commands pass
// through here without allocating.
func keyspaceNotifications[L Line](name string, line L) (Violation, bool) {
	if !strings.EqualFold(name, "SUBSCRIBE") && !strings.EqualFold(name, "PSUBSCRIBE") && !strings.EqualFold(name, "CONFIG") {
		return Violation{}, false
	}
	what, _, _ := commands.KeyspaceEvents(argvOf(line))
	if what == "" {
		return Violation{}, false
	}
	v := Violation{Command: what, Problem: "keyspace"}
	if command, channel, ok := strings.Cut(what, " "); ok && !strings.HasPrefix(what, "CONFIG") {
		v.Command = command
		if ch, err := strconv.Unquote(channel); err == nil {
			v.Keys = []string{ch}
		}
	}
	return v, true
}

// argvOf is a command line as the command table reads it.
func argvOf[L Line](line L) []commands.Arg {
	argv := make([]commands.Arg, line.Len())
	for i := range argv {
		argv[i].Text, argv[i].Known = line.Text(i)
	}
	return argv
}

// notice reports what a cluster does differently but does not refuse: to
// Options.Report and Options.Stats, in either mode.
func (c *Checker) notice(v Violation) {
	if c.opts.Stats != nil {
		c.opts.Stats.add(v)
	}
	if c.opts.Report != nil {
		c.opts.Report(v)
	}
}

// refuse counts a violation and reports it, or returns it in Fail mode.
func (c *Checker) refuse(v Violation) error {
	if c.opts.Stats != nil {
		c.opts.Stats.add(v)
	}
	if c.opts.Mode == Report {
		if c.opts.Report != nil {
			c.opts.Report(v)
		}
		return nil
	}
	return &Error{v}
}

// judge checks keys' tags and slots.
func (c *Checker) judge(command string, keys []string, tx *Tx) error {
	for _, k := range keys {
		if problem := tagProblem(k); problem != "" && (c.opts.Report != nil || c.opts.Stats != nil) {
			c.notice(c.violation(command, problem, []string{k}, []int{slotcalc.Slot(k)}))
		}
	}
	if tx == nil && c.target.ProxySplits(command) {
		return nil // the target's proxy splits it by slot outside a transaction
	}
	first, firstCommand := "", command
	var firstSlot int
	haveFirst := false
	if tx != nil && tx.set {
		first, firstCommand, firstSlot, haveFirst = tx.key, tx.command, tx.slot, true
	}
	for _, k := range keys {
		s := slotcalc.Slot(k)
		if !haveFirst {
			first, firstSlot, haveFirst = k, s, true
			if tx != nil {
				tx.key, tx.command, tx.slot, tx.set = k, command, s, true
			}
			continue
		}
		if s == firstSlot {
			continue
		}
		if tx == nil {
			return c.refuse(c.violation(command, "crossslot", []string{first, k}, []int{firstSlot, s}))
		}
		v := c.violation("MULTI/EXEC", "crossslot", []string{first, k}, []int{firstSlot, s})
		v.KeyCommands = []string{firstCommand, command}
		return c.refuse(v)
	}
	return nil
}

func (c *Checker) violation(command, problem string, keys []string, slots []int) Violation {
	return c.withCaller(Violation{Command: command, Keys: keys, Slots: slots, Problem: problem})
}

// withCaller records the call site, when the options or the stats want it.
func (c *Checker) withCaller(v Violation) Violation {
	if c.opts.Caller || c.opts.Stats != nil {
		v.Caller = c.caller()
	}
	return v
}

// caller is the first frame outside the client and the guard.
func (c *Checker) caller() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		file := unversioned(f.File)
		mine := goroot != "" && strings.HasPrefix(file, goroot) // the standard library's (bufio under a PubSub's write)
		for _, lib := range c.library {
			if strings.Contains(file, lib) {
				mine = true
				break
			}
		}
		if !mine {
			return f.File + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

// goroot is where the standard library's files are, as frames name them
// (the directory of strings.Index's file, less "strings/"); "" when frames
// do not say (a -trimpath build).
var goroot = func() string {
	file, _ := runtime.FuncForPC(reflect.ValueOf(strings.Index).Pointer()).FileLine(0)
	if i := strings.LastIndex(file, "/src/strings/"); i > 0 {
		return file[:i+len("/src/")]
	}
	return ""
}()

// thisFile is this package's directory: its frames are the guard's.
var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file[:strings.LastIndexByte(file, '/')+1]
}()

// unversioned is a file's path without the module versions the module
// cache puts in it (".../redigo@v1.9.3/redis/pool.go" is
// ".../redigo/redis/pool.go"), so that a library's path fragment matches
// it as users have the library.
func unversioned(file string) string {
	for {
		at := strings.IndexByte(file, '@')
		if at < 0 {
			return file
		}
		end := strings.IndexByte(file[at:], '/')
		if end < 0 {
			return file
		}
		file = file[:at] + file[at+end:]
	}
}

// tagProblem says whether a key's tag is malformed: "{}" first, a '{'
// with no '}' after it, or a second tag after the first or a '{' inside
// it ("lock:{cart:{alice}:items}" hashes "cart:{alice"), which the server
// ignores or hashes as it stands.
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
	tag, rest := k[open+1:open+1+close], k[open+1+close+1:]
	if strings.IndexByte(tag, '{') >= 0 {
		return "doubletag"
	}
	if i := strings.IndexByte(rest, '{'); i >= 0 && strings.IndexByte(rest[i+1:], '}') > 0 {
		return "doubletag"
	}
	return ""
}

// lower holds the command table by lower-case name, as go-redis sends names,
// so that the common lookup does not allocate.
var lower = func() map[string]commands.Command {
	m := make(map[string]commands.Command, 2*(len(commands.Table())+len(commands.Newer())))
	add := func(name string) {
		c, _ := commands.Lookup(name)
		m[strings.ToLower(name)] = c
		m[strings.ToUpper(name)] = c // as rueidis and redigo users write them
	}
	for name := range commands.Table() {
		add(name)
	}
	for name := range commands.Newer() {
		add(name)
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

// IsTransaction says whether a batch's names make one MULTI ... EXEC.
func IsTransaction(first, last string) bool {
	return strings.EqualFold(first, "multi") && strings.EqualFold(last, "exec")
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
