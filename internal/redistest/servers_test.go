package redistest

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests below start their own servers: they need redis-server, which
// RedisServer requires as Addr requires the shared servers.

// do runs one command on addr, failing the test on an error.
func do(t *testing.T, c *Conn, args ...string) any {
	t.Helper()
	reply, err := c.Do(args...)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	return reply
}

func dial(t *testing.T, addr string) *Conn {
	t.Helper()
	c, err := Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestStartPlain(t *testing.T) {
	s := StartPlain(t, "--requirepass", "pw")
	c := dial(t, s.Addr)
	if _, err := c.Do("GET", "k"); err == nil || !strings.HasPrefix(err.Error(), "NOAUTH") {
		t.Fatalf("GET before AUTH: %v, want NOAUTH", err)
	}
	do(t, c, "AUTH", "pw")
	do(t, c, "SET", "k", "v")
	if got := do(t, c, "GET", "k"); got != "v" {
		t.Errorf("GET k = %v, want v", got)
	}
	if info := do(t, c, "INFO", "cluster").(string); !strings.Contains(info, "cluster_enabled:0") {
		t.Errorf("a plain server is in cluster mode:\n%s", info)
	}
}

func TestSlotRange(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want [][2]int
	}{
		{1, [][2]int{{0, 16383}}},
		{2, [][2]int{{0, 8191}, {8192, 16383}}},
		{3, [][2]int{{0, 5460}, {5461, 10922}, {10923, 16383}}},
		// redis-cli --cluster create with 6 masters.
		{6, [][2]int{{0, 2730}, {2731, 5460}, {5461, 8191}, {8192, 10922}, {10923, 13652}, {13653, 16383}}},
	} {
		for i, w := range tc.want {
			if first, last := SlotRange(tc.n, i); first != w[0] || last != w[1] {
				t.Errorf("SlotRange(%d, %d) = %d-%d, want %d-%d", tc.n, i, first, last, w[0], w[1])
			}
		}
	}
}

func TestStartCluster(t *testing.T) {
	began := time.Now()
	masters, replicas := StartCluster(t, 3, 1)
	t.Logf("StartCluster(3, 1) took %v", time.Since(began))
	if len(masters) != 3 || len(replicas) != 3 {
		t.Fatalf("%d masters, %d replicas, want 3 and 3", len(masters), len(replicas))
	}
	for _, s := range append(masters, replicas...) {
		info := do(t, dial(t, s.Addr), "CLUSTER", "INFO").(string)
		for _, want := range []string{"cluster_state:ok", "cluster_slots_assigned:16384", "cluster_known_nodes:6", "cluster_size:3"} {
			if !strings.Contains(info, want+"\r\n") {
				t.Errorf("%s: CLUSTER INFO lacks %s:\n%s", s.Addr, want, info)
			}
		}
	}
	// A key on each master: one whose slot is in the master's range, set
	// there without MOVED, and read back on its replica.
	for i, m := range masters {
		first, last := SlotRange(3, i)
		mc := dial(t, m.Addr)
		key := ""
		for n := 0; key == ""; n++ {
			k := "key:" + strconv.Itoa(n)
			if slot := do(t, mc, "CLUSTER", "KEYSLOT", k).(int64); int(slot) >= first && int(slot) <= last {
				key = k
			}
		}
		do(t, mc, "SET", key, m.Addr)
		if got := do(t, mc, "WAIT", "1", "5000"); got != int64(1) {
			t.Fatalf("%s: WAIT 1 = %v, want 1 replica", m.Addr, got)
		}
		rc := dial(t, replicas[i].Addr)
		if _, err := rc.Do("GET", key); err == nil || !strings.HasPrefix(err.Error(), "MOVED") {
			t.Errorf("%s: GET %s without READONLY: %v, want MOVED", replicas[i].Addr, key, err)
		}
		do(t, rc, "READONLY")
		if got := do(t, rc, "GET", key); got != m.Addr {
			t.Errorf("replica %s: GET %s = %v, want %s", replicas[i].Addr, key, got, m.Addr)
		}
	}
}

func TestKill(t *testing.T) {
	s := StartPlain(t)
	do(t, dial(t, s.Addr), "PING")
	s.Kill()
	s.Kill() // twice is fine
	if c, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after Kill", s.Addr)
	}
}

func TestStartTLS(t *testing.T) {
	s, caFile := StartTLS(t)
	pemCA, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCA) {
		t.Fatalf("no certificate in %s", caFile)
	}
	for _, name := range []string{"", "localhost"} { // 127.0.0.1 from the address, then by name
		c, err := tls.Dial("tcp", s.Addr, &tls.Config{RootCAs: pool, ServerName: name})
		if err != nil {
			t.Fatalf("TLS to %s (server name %q): %v", s.Addr, name, err)
		}
		rc := newConn(c)
		if got := do(t, rc, "PING"); got != "PONG" {
			t.Errorf("PING = %v, want PONG", got)
		}
		rc.Close()
	}
	// Only TLS: plain RESP on the port gets no reply.
	c, err := Dial(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Send("PING")
	c.c.SetDeadline(time.Now().Add(500 * time.Millisecond))
	c.w.Flush()
	if reply, err := c.Receive(); err == nil {
		t.Errorf("plain PING on the TLS port answered %v", reply)
	}
}

// TestStartTLSWithoutTLS runs StartTLS on a stand-in for a redis-server
// built without TLS, which rejects the tls-* directives as 7.0 does: the
// test is skipped, under CI=true too, rather than failed.
func TestStartTLSWithoutTLS(t *testing.T) {
	RedisServer(t) // Unix, as the real tests
	fake := filepath.Join(t.TempDir(), "redis-server")
	script := `#!/bin/sh
printf '\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nReading the configuration file, at line 2\n>>> '"'"'tls-port "20001"'"'"'\nBad directive or wrong number of arguments\n'
exit 1
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(RedisServerEnv, fake)
	t.Setenv("CI", "true")
	var skipped bool
	t.Run("start", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		StartTLS(t)
	})
	if !skipped {
		t.Error("StartTLS on a redis-server without TLS did not skip")
	}
}
