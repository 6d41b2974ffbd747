package redistest

// Throwaway redis-servers a test starts for itself: a test that kills a
// node, seeds a cluster or needs TLS or ACL users must not disturb the
// shared servers .ci/run starts for every package.

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math"
	"math/big"
	mathrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// RedisServerEnv names the environment variable holding the redis-server
// binary the Start functions run; without it, redis-server on PATH.
const RedisServerEnv = "CROSSSLOT_REDIS_SERVER"

// RedisServer returns the redis-server binary's path. Without one the test
// fails under CI=true and is skipped elsewhere, as Addr's.
func RedisServer(t testing.TB) string {
	t.Helper()
	if path := os.Getenv(RedisServerEnv); path != "" {
		return path
	}
	if path, err := exec.LookPath("redis-server"); err == nil {
		return path
	}
	msg := "redis-server is not on PATH and " + RedisServerEnv + " is not set: install redis-server " +
		"(apt-get install redis-server) or set " + RedisServerEnv + " to its path"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	skip(t, RedisServerEnv, msg)
	return ""
}

// A Server is one redis-server process the test started; t.Cleanup kills
// it, and prints its log when the test failed.
type Server struct {
	Addr string // 127.0.0.1:port (the TLS port for StartTLS)
	Dir  string // its working directory: redis.log (stdout and stderr), nodes.conf
	ID   string // its cluster node ID; empty for a standalone server

	cmd  *exec.Cmd
	done chan struct{} // closed once the process has been waited for
}

// Kill sends SIGKILL and waits for the process to exit, so that its
// address refuses connections when Kill returns. A second call, or one
// after the process died, does nothing.
func (s *Server) Kill() {
	s.cmd.Process.Kill() // os.ErrProcessDone once it has exited: nothing to do
	<-s.done
}

// exited reports whether the process has exited.
func (s *Server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// log returns the server's output so far.
func (s *Server) log() string {
	b, err := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}

// logf reports s's log through t.
func (s *Server) logf(t testing.TB) {
	t.Helper()
	t.Logf("redis-server %s log (%s):\n%s", s.Addr, s.Dir, s.log())
}

// StartPlain starts a standalone (non-cluster) server. extra are more
// redis-server arguments, e.g. "--requirepass", "pw"; they come last, so
// they override the defaults.
func StartPlain(t testing.TB, extra ...string) *Server {
	t.Helper()
	return start(t, RedisServer(t), portArgs, Dial, extra)
}

// StartTLS starts a standalone server that listens only with TLS, its
// certificate signed by the returned CA (TLSFiles). A redis-server built
// without TLS skips the test, under CI=true too: that is the build
// installed, not a missing service.
func StartTLS(t testing.TB, extra ...string) (s *Server, caFile string) {
	t.Helper()
	bin := RedisServer(t)
	caFile, certFile, keyFile := TLSFiles(t, t.TempDir())
	cfg, err := tlsClientConfig(caFile)
	if err != nil {
		t.Fatal(err)
	}
	args := func(port int) []string {
		return []string{"--port", "0", "--tls-port", strconv.Itoa(port),
			"--tls-cert-file", certFile, "--tls-key-file", keyFile, "--tls-ca-cert-file", caFile,
			"--tls-auth-clients", "no"}
	}
	dial := func(addr string) (*Conn, error) { return DialTLS(addr, cfg) }
	s, err = tryStart(t, bin, args, dial, extra)
	if err != nil {
		if s != nil && withoutTLS(s.log()) {
			t.Skipf("%s was built without TLS support (make BUILD_TLS=yes), so this TLS test cannot run; its log:\n%s", bin, s.log())
		}
		t.Fatal(err) // the cleanup prints the log
	}
	return s, caFile
}

// withoutTLS reports whether a server's startup log says it has no TLS.
// Through 7.0, redis-server built without BUILD_TLS rejects the tls-*
// directives: ">>> 'tls-port ...'" then "Bad directive or wrong number of
// arguments"; from 7.2 it finds no TLS connection type ("Failed finding
// connection listener of tls"). A TLS build that fails otherwise, on a bad
// certificate say, is a failure, not a skip.
func withoutTLS(log string) bool {
	l := strings.ToLower(log)
	return strings.Contains(l, ">>> 'tls-") && strings.Contains(l, "bad directive") ||
		strings.Contains(l, "connection listener of tls") ||
		strings.Contains(l, "tls is not supported")
}

// DialTLS connects to addr over TLS.
func DialTLS(addr string, cfg *tls.Config) (*Conn, error) {
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	return newConn(c), nil
}

func newConn(c net.Conn) *Conn {
	return &Conn{c: c, r: bufio.NewReaderSize(c, 1<<16), w: bufio.NewWriterSize(c, 1<<16)}
}

// tlsClientConfig trusts the CA in caFile.
func tlsClientConfig(caFile string) (*tls.Config, error) {
	pemCA, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCA) {
		return nil, fmt.Errorf("redistest: no certificate in %s", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// TLSFiles writes a self-signed CA and a server certificate it signed, for
// 127.0.0.1, ::1 and localhost, into dir: ca.crt, server.crt, server.key.
// The server certificate also allows client authentication, so that it can
// serve as a client certificate (tls-replication, tls-auth-clients yes).
func TLSFiles(t testing.TB, dir string) (caFile, certFile, keyFile string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	// Backdated an hour, so that a clock a little behind still accepts it.
	notBefore := time.Now().Add(-time.Hour)
	notAfter := notBefore.Add(48 * time.Hour)
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "redistest CA"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(dir, "ca.crt")
	certFile = filepath.Join(dir, "server.crt")
	keyFile = filepath.Join(dir, "server.key")
	for _, f := range []struct {
		path, typ string
		der       []byte
		mode      os.FileMode
	}{
		{caFile, "CERTIFICATE", caDER, 0o644},
		{certFile, "CERTIFICATE", der, 0o644},
		{keyFile, "PRIVATE KEY", keyDER, 0o600},
	} {
		if err := os.WriteFile(f.path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	return caFile, certFile, keyFile
}

// portArgs listens on port with plain TCP.
func portArgs(port int) []string { return []string{"--port", strconv.Itoa(port)} }

// start starts a server or fails the test (the cleanup prints the log).
func start(t testing.TB, bin string, listen func(port int) []string, dial func(string) (*Conn, error), extra []string) *Server {
	t.Helper()
	s, err := tryStart(t, bin, listen, dial, extra)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// errPortTaken is a bind failure: another process took the port between
// freePort's check and the server's bind, so another port is tried.
var errPortTaken = errors.New("redistest: port taken")

// tryStart starts a server on a free port, retrying on a bind failure. On
// another failure it returns the dead server, for its log, and the error.
func tryStart(t testing.TB, bin string, listen func(port int) []string, dial func(string) (*Conn, error), extra []string) (*Server, error) {
	t.Helper()
	var err error
	for range 5 {
		var port int
		if port, err = freePort(); err != nil {
			return nil, err
		}
		var s *Server
		s, err = launch(t, bin, port, listen(port), dial, extra)
		if !errors.Is(err, errPortTaken) {
			return s, err
		}
	}
	return nil, err
}

// launch runs bin listening on port and waits until it answers.
func launch(t testing.TB, bin string, port int, listen []string, dial func(string) (*Conn, error), extra []string) (*Server, error) {
	t.Helper()
	dir := t.TempDir()
	logFile, err := os.Create(filepath.Join(dir, "redis.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child has its own copy
	// Nothing persisted (no RDB, no AOF), only loopback, and a replica's
	// full sync streamed at once rather than after the default 5 s wait
	// for more replicas. An empty logfile logs to standard output, which
	// with standard error (config errors, a build without TLS) goes to
	// redis.log.
	args := append(listen, "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--logfile", "", "--repl-diskless-sync-delay", "0")
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(s.done)
	}()
	// Registered at once, so that a test failing midway (or a retry
	// below) leaves no process behind.
	t.Cleanup(func() {
		s.Kill()
		if t.Failed() {
			s.logf(t)
		}
	})
	if err := waitReady(s, dial); err != nil {
		s.Kill()
		if log := s.log(); strings.Contains(log, "Address already in use") {
			return s, fmt.Errorf("%w: %s", errPortTaken, s.Addr)
		}
		return s, err
	}
	return s, nil
}

// waitReady waits until s answers PING: any reply, NOAUTH included (a
// requirepass server is up too), but LOADING.
func waitReady(s *Server, dial func(string) (*Conn, error)) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s.exited() {
			return fmt.Errorf("redistest: redis-server %s exited at startup: %v", s.Addr, s.cmd.ProcessState)
		}
		err := ping(s.Addr, dial)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: redis-server %s did not answer in 10 s: %v", s.Addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func ping(addr string, dial func(string) (*Conn, error)) error {
	c, err := dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.Send("PING")
	// A short deadline, not Flush's 30 s: until the server binds, the
	// port may briefly be some other process's.
	c.c.SetDeadline(time.Now().Add(time.Second))
	if err := c.w.Flush(); err != nil {
		return err
	}
	_, err = c.Receive()
	var se ServerError
	if errors.As(err, &se) && !strings.HasPrefix(string(se), "LOADING") {
		return nil
	}
	return err
}

// freePort returns a loopback port that is free, and whose cluster bus port
// (port + 10000) is free too. As .ci/run, it draws them below the kernel's
// ephemeral range, so that no outgoing connection takes one between this
// check and the server's bind; a server that loses the race anyway is
// retried on another port.
func freePort() (int, error) {
	ephemeral := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				ephemeral = n
			}
		}
	}
	span := ephemeral - 10000 - 20000
	if span < 100 {
		span = 2700
	}
	for range 200 {
		p := 20000 + mathrand.IntN(span)
		if bindable(p) && bindable(p+10000) {
			return p, nil
		}
	}
	return 0, errors.New("redistest: no free loopback port")
}

func bindable(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// SlotRange returns the slots master i of n owns in StartCluster's
// cluster: contiguous, even ranges, as redis-cli --cluster create assigns
// them (0-5460, 5461-10922, 10923-16383 for 3).
func SlotRange(n, i int) (first, last int) {
	// redis-cli's arithmetic: each range ends at the rounded multiple of
	// 16384/n and the next starts right after it.
	per := 16384.0 / float64(n)
	for j := 0; ; j++ {
		last = int(math.Round(float64(j)*per + per - 1))
		if last > 16383 || j == n-1 {
			last = 16383
		}
		last = max(last, first)
		if j == i {
			return first, last
		}
		first = last + 1
	}
}

// StartCluster starts masters cluster-enabled servers plus
// replicasPerMaster replicas of each, assigns the slots (SlotRange), joins
// them and waits until the cluster is settled: every node says
// cluster_state:ok and sees every node connected, each replica as a
// replica of its master, which lists it online. It returns the masters,
// then the replicas: master i's are
// replicaServers[i*replicasPerMaster : (i+1)*replicasPerMaster].
//
// Only redis-server is needed: the setup speaks RESP itself, as redis-cli
// --cluster create would, without AUTH, so extra must leave the default
// user open (a test adds its ACL users afterwards). The node timeout stays
// redis's (15 s) unless extra sets it: a test that kills a node chooses
// how soon the cluster notices.
func StartCluster(t testing.TB, masters, replicasPerMaster int, extra ...string) (masterServers, replicaServers []*Server) {
	t.Helper()
	if masters < 1 || replicasPerMaster < 0 {
		t.Fatalf("redistest: StartCluster(%d, %d): want a master or more, and replicas >= 0", masters, replicasPerMaster)
	}
	bin := RedisServer(t)
	args := append([]string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"}, extra...)
	all := make([]*Server, masters*(1+replicasPerMaster))
	for i := range all {
		all[i] = start(t, bin, portArgs, Dial, args)
	}
	masterServers, replicaServers = all[:masters], all[masters:]
	masterOf := func(r int) int { return r / replicasPerMaster } // replica r's master's index

	conns := make([]*Conn, len(all))
	for i, s := range all {
		c, err := Dial(s.Addr)
		if err != nil {
			t.Fatalf("redistest: %s: %v", s.Addr, err)
		}
		defer c.Close()
		conns[i] = c
	}
	// A failure's logs are printed by the servers' cleanups.
	do := func(i int, args ...string) any {
		t.Helper()
		reply, err := conns[i].Do(args...)
		if err != nil {
			t.Fatalf("redistest: %s: %s: %v", all[i].Addr, strings.Join(args[:min(len(args), 3)], " "), err)
		}
		return reply
	}
	meet := func(i, j int) {
		t.Helper()
		_, port, _ := net.SplitHostPort(all[j].Addr)
		do(i, "CLUSTER", "MEET", "127.0.0.1", port)
	}
	deadline := time.Now().Add(30 * time.Second)
	wait := func(what string, problem func() string) {
		t.Helper()
		for {
			p := problem()
			if p == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("redistest: the cluster did not settle (%s) in 30 s: %s", what, p)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	for i, s := range all {
		s.ID, _ = do(i, "CLUSTER", "MYID").(string)
		// Distinct config epochs, as redis-cli sets, so that the nodes
		// need not resolve a collision before the slots settle.
		do(i, "CLUSTER", "SET-CONFIG-EPOCH", strconv.Itoa(i+1))
	}
	for i := range masterServers {
		// ADDSLOTS, not ADDSLOTSRANGE, which came in 7.0.
		first, last := SlotRange(masters, i)
		cmd := []string{"CLUSTER", "ADDSLOTS"}
		for slot := first; slot <= last; slot++ {
			cmd = append(cmd, strconv.Itoa(slot))
		}
		do(i, cmd...)
	}
	// Every pair meets, rather than every node meeting one: gossip takes
	// seconds to spread the others.
	for i := range all {
		for j := range i {
			meet(i, j)
		}
	}
	// A node can only replicate a master it knows.
	wait("nodes meeting", func() string {
		for i, s := range all {
			nodes, _ := do(i, "CLUSTER", "NODES").(string)
			if p := knowsAll(nodes, all, nil); p != "" {
				return s.Addr + ": " + p
			}
		}
		return ""
	})
	want := make(map[string]string) // replica ID -> its master's ID
	for r, s := range replicaServers {
		do(masters+r, "CLUSTER", "REPLICATE", masterServers[masterOf(r)].ID)
		want[s.ID] = masterServers[masterOf(r)].ID
	}
	// Every node meets every other again: a MEET carries its sender's
	// slots and role (replica of whom), which its receiver, knowing the
	// sender, takes at once, where the periodic pings would take up to
	// half the node timeout (7.5 s) to tell every node.
	for i := range all {
		for j := range all {
			if j != i {
				meet(i, j)
			}
		}
	}
	// A master says cluster_state:ok 2 s after it started at the
	// earliest (redis's CLUSTER_WRITABLE_DELAY): most of the wait.
	wait("slots and replicas", func() string {
		for i, s := range all {
			if info, _ := do(i, "CLUSTER", "INFO").(string); !strings.Contains(info, "cluster_state:ok\r\n") {
				return s.Addr + ": not cluster_state:ok"
			}
			nodes, _ := do(i, "CLUSTER", "NODES").(string)
			if p := knowsAll(nodes, all, want); p != "" {
				return s.Addr + ": " + p
			}
		}
		for r, s := range replicaServers {
			m := masterOf(r)
			_, port, _ := net.SplitHostPort(s.Addr)
			if repl, _ := do(m, "INFO", "replication").(string); !strings.Contains(repl, ",port="+port+",state=online") {
				return masterServers[m].Addr + ": replica " + s.Addr + " not online"
			}
			if repl, _ := do(masters+r, "INFO", "replication").(string); !strings.Contains(repl, "master_link_status:up") {
				return s.Addr + ": master link not up"
			}
		}
		return ""
	})
	return masterServers, replicaServers
}

// knowsAll says what CLUSTER NODES (nodes) lacks, "" when nothing: every
// one of all, connected and not failing, and nothing else (a handshake
// under way); given want (replica ID -> master ID), the replicas' roles.
func knowsAll(nodes string, all []*Server, want map[string]string) string {
	type node struct{ flags, master, link string }
	seen := make(map[string]node)
	for _, line := range strings.Split(strings.TrimSpace(nodes), "\n") {
		// <id> <ip:port@cport> <flags> <master> <ping-sent> <pong-recv> <epoch> <link-state> <slot>...
		if f := strings.Fields(line); len(f) >= 8 {
			seen[f[0]] = node{flags: f[2], master: f[3], link: f[7]}
		}
	}
	for _, s := range all {
		nd, ok := seen[s.ID]
		switch {
		case !ok:
			return "does not know " + s.Addr
		case strings.Contains(nd.flags, "handshake") || strings.Contains(nd.flags, "noaddr") || strings.Contains(nd.flags, "fail"):
			return s.Addr + " is " + nd.flags
		case nd.link != "connected":
			return s.Addr + " is " + nd.link
		}
		if m, ok := want[s.ID]; ok && (!strings.Contains(nd.flags, "slave") || nd.master != m) {
			return s.Addr + " is not yet a replica of " + m
		}
	}
	if len(seen) != len(all) {
		return fmt.Sprintf("%d nodes, want %d (a handshake under way)", len(seen), len(all))
	}
	return ""
}
