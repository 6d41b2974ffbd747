// Package redigoguard checks Redis Cluster's slot rules inside redigo
// connections, at run time: tests and staging on one node then fail (or
// report) the way a cluster would, for the keys the data decides.
//
//	pool := &redis.Pool{Dial: redigoguard.Dial(redigoguard.Options{}, func() (redis.Conn, error) {
//		return redis.Dial("tcp", addr)
//	})}
//	conn := pool.Get()
//	_, err := conn.Do("MGET", "user:1:a", "user:2:a")
//	// CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))
//
// Every command of Do, DoContext, DoWithTimeout and Send is checked before
// it is sent; a MULTI ... EXEC, sent or done command by command, is one
// transaction: a command that crosses its slot is not sent, and EXEC then
// fails and discards the transaction, as a cluster's EXECABORT does.
// Scripts (redis.NewScript) by their declared keys. The checks and the
// Violation are guardcore's, the same as the other guards'.
package redigoguard

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"

	"github.com/crossslot/crossslot/guardcore"
)

// Mode, Options, Violation, Error and Stats are guardcore's.
type (
	Mode      = guardcore.Mode
	Options   = guardcore.Options
	Violation = guardcore.Violation
	Error     = guardcore.Error
	Stats     = guardcore.Stats
)

const (
	Fail   = guardcore.Fail
	Report = guardcore.Report
)

// Wrap guards a connection.
func Wrap(c redis.Conn, opts Options) redis.Conn {
	return &conn{Conn: c, chk: guardcore.New(opts, "/github.com/gomodule/redigo/", thisFile)}
}

// Dial guards every connection dial makes: redis.Pool{Dial: Dial(opts, dial)}.
func Dial(opts Options, dial func() (redis.Conn, error)) func() (redis.Conn, error) {
	chk := guardcore.New(opts, "/github.com/gomodule/redigo/", thisFile)
	return func() (redis.Conn, error) {
		c, err := dial()
		if err != nil {
			return nil, err
		}
		return &conn{Conn: c, chk: chk}, nil
	}
}

var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()

// An AbortError is what EXEC returns after a command of its transaction
// was refused: the server's EXECABORT, naming the refused command, its keys
// and (with Options.Caller) its line, which EXEC's own line would not.
type AbortError struct {
	Cause error // the refusal of the command the transaction lost
}

func (e *AbortError) Error() string {
	detail := e.Cause.Error()
	if ge, ok := e.Cause.(*guardcore.Error); ok {
		detail = ge.Violation.String()
	}
	return "EXECABORT Transaction discarded because of previous errors (crossslot guard: " + detail + ")"
}

func (e *AbortError) Unwrap() error { return e.Cause }

// conn is a guarded connection, used by one goroutine at a time as redigo's
// are.
type conn struct {
	redis.Conn
	chk *guardcore.Checker
	tx  *guardcore.Tx // between MULTI and EXEC or DISCARD
	// refused is the refusal of a command of the transaction that was not
	// sent; EXEC discards the transaction.
	refused error
}

// line is a redigo command line: the name, then the arguments.
type line struct {
	name string
	args []interface{}
}

func (l line) Len() int { return len(l.args) + 1 }

func (l line) Text(i int) (string, bool) {
	if i == 0 {
		return l.name, true
	}
	return guardcore.Args(l.args).Text(i - 1)
}

func (l line) String(i int) (string, bool) {
	if i == 0 {
		return l.name, true
	}
	return guardcore.Args(l.args).String(i - 1)
}

// check checks a command before it is sent; discard says that the command
// is an EXEC whose transaction must be discarded instead.
func (c *conn) check(name string, args []interface{}) (discard bool, err error) {
	switch {
	case name == "": // Do("") flushes and receives what was sent
		return false, nil
	case strings.EqualFold(name, "MULTI"):
		c.tx, c.refused = &guardcore.Tx{}, nil
		return false, nil
	case strings.EqualFold(name, "EXEC"):
		refused := c.refused
		c.tx, c.refused = nil, nil
		if refused != nil {
			return true, &AbortError{Cause: refused}
		}
		return false, nil
	case strings.EqualFold(name, "DISCARD"):
		c.tx, c.refused = nil, nil
		return false, nil
	}
	if !c.chk.Sampled() {
		return false, nil
	}
	err = guardcore.Check(c.chk, line{name, args}, c.tx)
	if err != nil && c.tx != nil && c.refused == nil {
		c.refused = err
	}
	return false, err
}

func (c *conn) Do(name string, args ...interface{}) (interface{}, error) {
	if discard, err := c.check(name, args); err != nil {
		if discard {
			c.Conn.Do("DISCARD")
		}
		return nil, err
	}
	return c.Conn.Do(name, args...)
}

func (c *conn) Send(name string, args ...interface{}) error {
	if discard, err := c.check(name, args); err != nil {
		if discard {
			c.Conn.Send("DISCARD")
		}
		return err
	}
	return c.Conn.Send(name, args...)
}

func (c *conn) DoContext(ctx context.Context, name string, args ...interface{}) (interface{}, error) {
	if discard, err := c.check(name, args); err != nil {
		if discard {
			redis.DoContext(c.Conn, ctx, "DISCARD")
		}
		return nil, err
	}
	return redis.DoContext(c.Conn, ctx, name, args...)
}

func (c *conn) DoWithTimeout(timeout time.Duration, name string, args ...interface{}) (interface{}, error) {
	if discard, err := c.check(name, args); err != nil {
		if discard {
			redis.DoWithTimeout(c.Conn, timeout, "DISCARD")
		}
		return nil, err
	}
	return redis.DoWithTimeout(c.Conn, timeout, name, args...)
}

func (c *conn) ReceiveContext(ctx context.Context) (interface{}, error) {
	return redis.ReceiveContext(c.Conn, ctx)
}

func (c *conn) ReceiveWithTimeout(timeout time.Duration) (interface{}, error) {
	return redis.ReceiveWithTimeout(c.Conn, timeout)
}
