package guard

import (
	"bytes"
	"context"
	"net"
	"runtime"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// go-redis's PubSub writes SUBSCRIBE, PSUBSCRIBE and SSUBSCRIBE on a
// connection of its own, past the command hooks: only the dial hook sees
// that connection. The guard wraps the connections a PubSub dials (and no
// other: the pool's health checks want the plain socket) and checks the
// subscription commands written on them: sharded channels on two slots
// (refused as a cluster refuses them: the command is not sent, and the
// connection reads the cluster's error reply in its place, which the
// PubSub's Receive returns) and keyspace-notification channels (reported:
// on a cluster they receive one node's events).

func (h *hook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := next(ctx, network, addr)
		if err != nil || !dialedForPubSub() {
			return conn, err
		}
		return &pubSubConn{Conn: conn, h: h}, nil
	}
}

// dialedForPubSub says whether go-redis dials for a PubSub.
func dialedForPubSub() bool {
	return goRedisOnStack(func(fn string) bool { return strings.Contains(fn, ".(*PubSub).") })
}

// A pubSubConn is a PubSub's connection, its subscriptions checked.
type pubSubConn struct {
	net.Conn
	h *hook
	// replies are the error replies of refused commands, read before what
	// the server sends.
	replies []byte
}

func (c *pubSubConn) Write(b []byte) (int, error) {
	var send []byte // b without the refused commands, when there are any
	for at := 0; at < len(b); {
		args, n, ok := respCommand(b[at:])
		if !ok {
			break
		}
		if len(args) > 0 && isSubscription(args[0]) {
			if err := c.h.check(redis.NewCmd(context.Background(), args...), nil); err != nil {
				if send == nil {
					send = append([]byte{}, b[:at]...)
				}
				c.replies = append(c.replies, "-"+strings.ReplaceAll(err.Error(), "\r\n", " ")+"\r\n"...)
				at += n
				continue
			}
		}
		if send != nil {
			send = append(send, b[at:at+n]...)
		}
		at += n
	}
	if send == nil {
		return c.Conn.Write(b)
	}
	if len(send) > 0 {
		if _, err := c.Conn.Write(send); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

func (c *pubSubConn) Read(b []byte) (int, error) {
	if len(c.replies) > 0 {
		n := copy(b, c.replies)
		c.replies = c.replies[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// isSubscription says whether a command name (as go-redis writes it, lower
// case) is one the guard checks on a PubSub's connection.
func isSubscription(name any) bool {
	s, _ := name.(string)
	switch strings.ToLower(s) {
	case "subscribe", "psubscribe", "ssubscribe", "sunsubscribe":
		return true
	}
	return false
}

// respCommand reads one RESP array of bulk strings from b: its elements,
// and how many bytes it took.
func respCommand(b []byte) (args []any, n int, ok bool) {
	line := func() ([]byte, bool) {
		i := bytes.Index(b[n:], []byte("\r\n"))
		if i < 0 {
			return nil, false
		}
		l := b[n : n+i]
		n += i + 2
		return l, true
	}
	head, ok := line()
	if !ok || len(head) < 2 || head[0] != '*' {
		return nil, 0, false
	}
	count, err := strconv.Atoi(string(head[1:]))
	if err != nil || count < 0 {
		return nil, 0, false
	}
	for range count {
		size, ok := line()
		if !ok || len(size) < 2 || size[0] != '$' {
			return nil, 0, false
		}
		m, err := strconv.Atoi(string(size[1:]))
		if err != nil || m < 0 || n+m+2 > len(b) {
			return nil, 0, false
		}
		args = append(args, string(b[n:n+m]))
		n += m + 2
	}
	return args, n, true
}

// pubSubFile is this file, whose frames are the guard's.
var pubSubFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()
