// Package redistest connects tests to the live cluster-enabled Redis that
// .ci/run starts, speaking just enough RESP to pipeline commands.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/resp"
)

// AddrEnv names the environment variable holding the server's host:port.
const AddrEnv = "CROSSSLOT_REDIS_ADDR"

// ClusterAddrEnv names the environment variable holding one node of a
// three-master cluster, whose nodes own slots 0-5460, 5461-10922 and
// 10923-16383: there a key of another node's slot gets MOVED.
const ClusterAddrEnv = "CROSSSLOT_REDIS_CLUSTER_ADDR"

// PlainAddrEnv names the environment variable holding a plain redis-server,
// without cluster mode, where any keys may be combined.
const PlainAddrEnv = "CROSSSLOT_REDIS_PLAIN_ADDR"

// RingAddrsEnv names the environment variable holding two plain
// redis-servers, host:port,host:port, kept for go-redis's Ring: its test
// flushes them.
const RingAddrsEnv = "CROSSSLOT_RING_ADDRS"

// RingAddrs returns the Ring's two servers, required as Addr's is.
func RingAddrs(t testing.TB) string {
	t.Helper()
	return required(t, RingAddrsEnv, "start two plain redis-servers (redis-server --port 7301 --save '', and 7302) and set "+
		RingAddrsEnv+"=127.0.0.1:7301,127.0.0.1:7302, or run .ci/run")
}

// PlainAddr returns the plain server's address, required as Addr's is.
func PlainAddr(t testing.TB) string {
	t.Helper()
	return required(t, PlainAddrEnv, "start a redis-server (redis-server --port 7200 --save '') and set "+
		PlainAddrEnv+"=127.0.0.1:7200, or run .ci/run")
}

// Addr returns the live server's address. Without one the test fails under
// CI=true, where the server is required, and is skipped elsewhere.
func Addr(t testing.TB) string {
	t.Helper()
	return required(t, AddrEnv, "start a cluster-enabled redis-server "+
		"(redis-server --port 7000 --cluster-enabled yes --save '', then redis-cli -p 7000 cluster addslotsrange 0 16383) and set "+
		AddrEnv+"=127.0.0.1:7000, or run .ci/run")
}

// ClusterAddr returns a node of the live three-master cluster, required as
// Addr's server is.
func ClusterAddr(t testing.TB) string {
	t.Helper()
	return required(t, ClusterAddrEnv, "start three cluster-enabled redis-servers on ports 7101-7103, "+
		"redis-cli --cluster create 127.0.0.1:7101 127.0.0.1:7102 127.0.0.1:7103 --cluster-replicas 0 --cluster-yes, and set "+
		ClusterAddrEnv+"=127.0.0.1:7101, or run .ci/run")
}

func required(t testing.TB, env, how string) string {
	t.Helper()
	if addr := os.Getenv(env); addr != "" {
		return addr
	}
	msg := env + " is not set: " + how
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	skip(t, env, msg)
	return ""
}

// SlowEnv names the environment variable that runs the slow tests outside
// CI: those that build modules from scratch to run the recipes of the README
// and its pages in docs/ as written (installing crossslot and the guards, the
// CI job).
const SlowEnv = "CROSSSLOT_SLOW_TESTS"

// Slow skips a slow test unless CI=true or CROSSSLOT_SLOW_TESTS=1, so that
// the README's test command stays quick on a cold machine; CI runs them.
func Slow(t testing.TB) {
	t.Helper()
	if os.Getenv("CI") == "true" || os.Getenv(SlowEnv) == "1" {
		return
	}
	skip(t, SlowEnv, "slow: it builds modules from scratch; CI runs it ("+SlowEnv+"=1 here)")
}

func skip(t testing.TB, env, msg string) {
	t.Helper()
	skipped.Lock()
	skipped.tests = append(skipped.tests, t.Name())
	if !slices.Contains(skipped.envs, env) {
		skipped.envs = append(skipped.envs, env)
	}
	skipped.Unlock()
	t.Skip(msg)
}

// summaryTTY is the terminal Main writes to.
var summaryTTY = "/dev/tty"

// skipped records the tests skipped for want of a server, or as slow.
var skipped struct {
	sync.Mutex
	tests, envs []string
}

// Main runs a package's tests and, when live or slow tests were skipped,
// says so in one line: go test shows nothing of a package that passes, so a
// contributor without the servers would believe everything ran. The line
// goes to the terminal (go test keeps a passing package's output to
// itself), or to standard error without one.
func Main(m *testing.M) int {
	code := m.Run()
	skipped.Lock()
	defer skipped.Unlock()
	if len(skipped.tests) == 0 {
		return code
	}
	pkg := "this package"
	if wd, err := os.Getwd(); err == nil {
		pkg = filepath.Base(wd)
	}
	tests := "tests"
	if len(skipped.tests) == 1 {
		tests = "test"
	}
	line := fmt.Sprintf("crossslot: %s: %d %s skipped, %s not set (bash .ci/run starts the servers and runs them all)\n",
		pkg, len(skipped.tests), tests, strings.Join(skipped.envs, ", "))
	if tty, err := os.OpenFile(summaryTTY, os.O_WRONLY, 0); err == nil {
		fmt.Fprint(tty, line)
		tty.Close()
	} else {
		fmt.Fprint(os.Stderr, line)
	}
	return code
}

// Conn is a pipelining RESP2 connection.
type Conn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

// Dial connects to addr.
func Dial(addr string) (*Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &Conn{c: c, r: bufio.NewReaderSize(c, 1<<16), w: bufio.NewWriterSize(c, 1<<16)}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Send buffers one command; Flush sends the buffered commands.
func (c *Conn) Send(args ...string) error {
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(c.w, "$%d\r\n", len(a))
		c.w.WriteString(a)
		c.w.WriteString("\r\n")
	}
	return nil
}

// Flush writes the buffered commands to the server.
func (c *Conn) Flush() error {
	c.c.SetDeadline(time.Now().Add(30 * time.Second))
	return c.w.Flush()
}

// Do sends one command and reads its reply.
func (c *Conn) Do(args ...string) (any, error) {
	c.Send(args...)
	if err := c.Flush(); err != nil {
		return nil, err
	}
	return c.Receive()
}

// ServerError is an error reply such as "CROSSSLOT Keys in request don't hash to the same slot".
type ServerError = resp.Error

// Receive reads one reply: a string, an int64, nil, a []any, or a ServerError
// as the error.
func (c *Conn) Receive() (any, error) { return resp.ReadReply(c.r) }

// ServerTarget is the target (package clustertarget's spelling) of the server at
// addr, from INFO server: "redis:7.0.15", "valkey:8.1.1". A guard that
// agrees with a live server is given it, as its rules depend on the
// release.
func ServerTarget(t testing.TB, addr string) string {
	t.Helper()
	c, err := Dial(addr)
	if err != nil {
		t.Fatalf("INFO of %s: %v", addr, err)
	}
	defer c.Close()
	reply, err := c.Do("INFO", "server")
	info, ok := reply.(string)
	if err != nil || !ok {
		t.Fatalf("INFO of %s: %v %v", addr, reply, err)
	}
	server, version := "redis", ""
	for _, line := range strings.Split(info, "\r\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "server_name":
			server = v
		case "valkey_version":
			server, version = "valkey", v
		case "redis_version":
			if version == "" {
				version = v
			}
		}
	}
	if version == "" {
		t.Fatalf("INFO of %s names no version", addr)
	}
	return server + ":" + version
}
