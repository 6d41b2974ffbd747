// Package resp is a read-only Redis client: just enough of the RESP2
// protocol to pipeline the commands that read a key space (SCAN, TYPE,
// PTTL, MEMORY USAGE, CLUSTER SLOTS, ...) over TCP or TLS.
//
// It sends nothing that writes: every command is checked against a table of
// read-only commands before it is sent, and anything else is refused
// without touching the connection. crossslot reads users' production
// servers with it, so that guarantee is structural, not a convention of
// its callers.
package resp

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// readOnly lists the commands a Conn sends, and for a command with
// subcommands the subcommands allowed. Nothing here changes data: AUTH and
// SELECT change only the connection, READONLY lets a cluster replica
// answer reads.
var readOnly = map[string][]string{
	"AUTH":      nil,
	"SELECT":    nil,
	"READONLY":  nil,
	"PING":      nil,
	"INFO":      nil,
	"DBSIZE":    nil,
	"SCAN":      nil,
	"RANDOMKEY": nil,
	"TYPE":      nil,
	"PTTL":      nil,
	"MEMORY":    {"USAGE"},
	"CLUSTER":   {"SLOTS", "COUNTKEYSINSLOT", "KEYSLOT", "INFO", "MYID"},
}

// ReadOnly reports whether the command line args would be sent.
func ReadOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	subs, ok := readOnly[strings.ToUpper(args[0])]
	if !ok {
		return false
	}
	if subs == nil {
		return true
	}
	if len(args) < 2 {
		return false
	}
	for _, s := range subs {
		if strings.EqualFold(args[1], s) {
			return true
		}
	}
	return false
}

// An Error is the server's error reply, such as "NOAUTH Authentication
// required." or "ERR unknown command 'MEMORY'".
type Error string

func (e Error) Error() string { return string(e) }

// Prefix is the error's code: "NOAUTH", "WRONGPASS", "ERR".
func (e Error) Prefix() string {
	code, _, _ := strings.Cut(string(e), " ")
	return code
}

// Options say how to reach a server.
type Options struct {
	// TLS, when set, wraps the connection (rediss://).
	TLS *tls.Config
	// User and Password authenticate (AUTH [user] password); no AUTH
	// without a password.
	User, Password string
	// DB is SELECTed when not 0.
	DB int
	// Timeout bounds the dial and each round trip; 10 s when 0.
	Timeout time.Duration
}

// A Conn is one connection. It is not safe for concurrent use.
type Conn struct {
	addr    string
	c       net.Conn
	r       *bufio.Reader
	w       *bufio.Writer
	timeout time.Duration
}

// Dial connects to addr (host:port), authenticates and selects the
// database.
func Dial(ctx context.Context, addr string, o Options) (*Conn, error) {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	d := &net.Dialer{Timeout: timeout}
	var nc net.Conn
	var err error
	if o.TLS != nil {
		cfg := o.TLS.Clone()
		if cfg.ServerName == "" {
			host, _, _ := net.SplitHostPort(addr)
			cfg.ServerName = host
		}
		nc, err = (&tls.Dialer{NetDialer: d, Config: cfg}).DialContext(ctx, "tcp", addr)
	} else {
		nc, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	c := &Conn{addr: addr, c: nc, r: bufio.NewReaderSize(nc, 1<<16), w: bufio.NewWriterSize(nc, 1<<16), timeout: timeout}
	if o.Password != "" {
		args := []string{"AUTH", o.Password}
		if o.User != "" {
			args = []string{"AUTH", o.User, o.Password}
		}
		if _, err := c.Do(args...); err != nil {
			c.Close()
			return nil, fmt.Errorf("authenticating to %s: %w", addr, err)
		}
	}
	if o.DB != 0 {
		if _, err := c.Do("SELECT", strconv.Itoa(o.DB)); err != nil {
			c.Close()
			return nil, fmt.Errorf("selecting database %d on %s: %w", o.DB, addr, err)
		}
	}
	return c, nil
}

// Addr is the address the connection was dialled to.
func (c *Conn) Addr() string { return c.addr }

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Send buffers one command, or refuses one that is not read-only.
func (c *Conn) Send(args ...string) error {
	if !ReadOnly(args) {
		return fmt.Errorf("resp: %q is not a read-only command; refused", strings.Join(args, " "))
	}
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(c.w, "$%d\r\n", len(a))
		c.w.WriteString(a)
		c.w.WriteString("\r\n")
	}
	return nil
}

// Flush writes the buffered commands.
func (c *Conn) Flush() error {
	c.c.SetDeadline(time.Now().Add(c.timeout))
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("writing to %s: %w", c.addr, err)
	}
	return nil
}

// Do sends one command and reads its reply.
func (c *Conn) Do(args ...string) (any, error) {
	if err := c.Send(args...); err != nil {
		return nil, err
	}
	if err := c.Flush(); err != nil {
		return nil, err
	}
	return c.Receive()
}

// Pipeline sends the commands in one write and reads their replies in
// order. A server's error reply is the reply (an Error), not the error;
// the error is the connection's.
func (c *Conn) Pipeline(cmds [][]string) ([]any, error) {
	for _, args := range cmds {
		if err := c.Send(args...); err != nil {
			c.w.Reset(c.c) // drop what was buffered: nothing was sent
			return nil, err
		}
	}
	if err := c.Flush(); err != nil {
		return nil, err
	}
	out := make([]any, len(cmds))
	for i := range out {
		v, err := c.Receive()
		var e Error
		switch {
		case errors.As(err, &e):
			v = e
		case err != nil:
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Receive reads one reply: a string, an int64, nil, a []any (whose
// elements may be Errors), or an Error as the error.
func (c *Conn) Receive() (any, error) {
	c.c.SetDeadline(time.Now().Add(c.timeout))
	v, err := ReadReply(c.r)
	if err != nil {
		if _, ok := err.(Error); !ok {
			return nil, fmt.Errorf("reading from %s: %w", c.addr, err)
		}
	}
	return v, err
}

// ReadReply reads one RESP2 reply from r: a string, an int64, nil, a
// []any (whose elements may be Errors), or an Error as the error.
func ReadReply(r *bufio.Reader) (any, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("malformed reply line %q", line)
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return nil, Error(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil {
			return nil, fmt.Errorf("malformed bulk length %q", body)
		}
		if n < 0 {
			return nil, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return string(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil {
			return nil, fmt.Errorf("malformed array length %q", body)
		}
		if n < 0 {
			return nil, nil
		}
		out := make([]any, n)
		for i := range out {
			v, err := ReadReply(r)
			if e, ok := err.(Error); ok {
				v, err = e, nil
			}
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("unexpected reply %q", line)
}

// Int reads an integer reply.
func Int(v any) (int64, bool) {
	n, ok := v.(int64)
	return n, ok
}
