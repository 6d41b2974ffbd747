package resp

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
)

// A command outside the read-only table is refused before anything is
// written: the fake server below would fail the test on any byte.
func TestWritesAreRefused(t *testing.T) {
	for _, args := range [][]string{
		{"SET", "k", "v"}, {"DEL", "k"}, {"FLUSHALL"}, {"EVAL", "return 1", "0"}, {"CONFIG", "SET", "x", "y"},
		{"CLUSTER", "RESET"}, {"CLUSTER", "FAILOVER"}, {"MEMORY", "PURGE"}, {"CLUSTER"}, {"MEMORY"}, {"KEYS", "*"}, {},
	} {
		if ReadOnly(args) {
			t.Errorf("%q is taken as read-only", args)
		}
	}
	for _, args := range [][]string{{"scan", "0"}, {"MEMORY", "usage", "k"}, {"CLUSTER", "slots"}, {"RANDOMKEY"}, {"PTTL", "k"}} {
		if !ReadOnly(args) {
			t.Errorf("%q is refused", args)
		}
	}

	server, client := net.Pipe()
	defer server.Close()
	go func() {
		buf := make([]byte, 1)
		if n, _ := server.Read(buf); n > 0 {
			t.Errorf("the server received %q", buf[:n])
		}
	}()
	c := &Conn{addr: "pipe", c: client, r: bufio.NewReader(client), w: bufio.NewWriter(client), timeout: 1e9}
	if _, err := c.Do("DEL", "k"); err == nil || !strings.Contains(err.Error(), "not a read-only command") {
		t.Errorf("DEL: %v, want a refusal", err)
	}
	if _, err := c.Pipeline([][]string{{"TYPE", "a"}, {"SET", "a", "1"}}); err == nil {
		t.Error("a pipeline with SET was sent")
	}
	client.Close()
}

// Replies of every RESP2 kind are read, and an error reply inside a
// pipeline is that command's reply.
func TestPipelineReplies(t *testing.T) {
	server, client := net.Pipe()
	go func() {
		r := bufio.NewReader(server)
		for range 5 { // read the five commands' arrays
			line, _ := r.ReadString('\n')
			var n int
			for _, ch := range line[1 : len(line)-2] {
				n = n*10 + int(ch-'0')
			}
			for range 2 * n {
				r.ReadString('\n')
			}
		}
		server.Write([]byte("+string\r\n:-1\r\n$5\r\nhello\r\n-NOPERM no\r\n*2\r\n$1\r\n0\r\n*1\r\n$3\r\nkey\r\n"))
		server.Close()
	}()
	c := &Conn{addr: "pipe", c: client, r: bufio.NewReader(client), w: bufio.NewWriter(client), timeout: 5e9}
	got, err := c.Pipeline([][]string{{"TYPE", "k"}, {"PTTL", "k"}, {"PING", "hello"}, {"MEMORY", "USAGE", "k"}, {"SCAN", "0"}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != "string" || got[1] != int64(-1) || got[2] != "hello" {
		t.Errorf("replies %v", got[:3])
	}
	if e, ok := got[3].(Error); !ok || e.Prefix() != "NOPERM" {
		t.Errorf("MEMORY's reply %#v, want the NOPERM error", got[3])
	}
	scan, _ := got[4].([]any)
	if len(scan) != 2 || scan[0] != "0" {
		t.Errorf("SCAN's reply %#v", got[4])
	}
}

// A server that is not there is an error naming it.
func TestDialError(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	_, err := Dial(context.Background(), addr, Options{})
	if err == nil || !strings.Contains(err.Error(), addr) {
		t.Errorf("Dial of a closed port: %v", err)
	}
}
