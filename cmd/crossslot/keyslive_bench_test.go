package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/redistest"
	"github.com/crossslot/crossslot/slotcalc"
)

// liveBenchKeys is the key space BenchmarkKeysLive reads: a million keys
// over three masters.
const liveBenchKeys = 1_000_000

// liveBenchHeap is the most heap keys -live may take to read them: the
// names are matched as they come and never kept, so it is what the
// families' samples, the slots' counts and one batch take.
const liveBenchHeap = 64 << 20

// BenchmarkKeysLive reads a million keys on three masters the way keys
// -live does (every name once, matched to four families, 200 keys per
// family and node measured, slot counts asked), with its default pause
// between batches and without one, beside redis-cli --scan --count 500 on
// each master in parallel over the same keys. Each reports its peak heap
// (or redis-cli's peak resident size) and the latency of a PING sent to a
// master every millisecond while it reads, against the same PINGs on the
// idle server.
//
//	go test ./cmd/crossslot -run '^$' -bench KeysLive -count 5 | benchstat -
func BenchmarkKeysLive(b *testing.B) {
	masters, _ := redistest.StartCluster(b, 3, 0)
	seedBench(b, masters)
	families := []*keyFamily{
		{Template: "user:{<id>}:profile"}, {Template: "user:{<id>}:settings"},
		{Template: "order:{<user>}:<n>"}, {Template: "feed:{global}:<id>"},
	}
	idle := serverLatency(b, masters, func() { time.Sleep(2 * time.Second) })
	b.Logf("idle: PING p50 %.0f µs, p99 %.0f µs", idle.pingP50, idle.pingP99)

	read := func(pause time.Duration) func(b *testing.B) {
		return func(b *testing.B) {
			var lat latency
			var peak uint64
			for b.Loop() {
				stop := peakHeap(&peak)
				lat = serverLatency(b, masters, func() {
					rep, err := readLive(families, liveOptions{url: "redis://" + masters[0].Addr, budget: 2 * liveBenchKeys, measure: 200, timeout: 10 * time.Minute, pause: pause})
					if err != nil || !rep.Exact || rep.Read != liveBenchKeys {
						b.Fatalf("read %+v, %v", rep, err)
					}
				})
				stop()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			if peak > liveBenchHeap {
				b.Errorf("reading %d keys took %d MiB of heap, more than the %d MiB stated", liveBenchKeys, peak>>20, liveBenchHeap>>20)
			}
			lat.report(b)
		}
	}
	b.Run("crossslot", read(time.Millisecond))
	b.Run("crossslot-nopause", read(0))
	b.Run("redis-cli", func(b *testing.B) {
		cli, err := exec.LookPath("redis-cli")
		if err != nil {
			b.Skip("redis-cli is not installed")
		}
		// --count arrived in redis-cli 7.2; before it, --scan sends SCAN
		// with the server's default COUNT, 10
		host, port, _ := net.SplitHostPort(masters[0].Addr)
		scanArgs := []string{"--scan", "--count", "500"}
		if exec.Command(cli, "-h", host, "-p", port, "--scan", "--count", "500", "--pattern", "no-such-key").Run() != nil {
			scanArgs = []string{"--scan"}
			b.Logf("%s has no --count: its --scan reads 10 keys a SCAN", cli)
		}
		var lat latency
		var rss int64
		for b.Loop() {
			lat = serverLatency(b, masters, func() {
				var wg sync.WaitGroup
				var mu sync.Mutex
				total := 0
				for _, m := range masters {
					wg.Go(func() {
						host, port, _ := net.SplitHostPort(m.Addr)
						cmd := exec.Command(cli, append([]string{"-h", host, "-p", port}, scanArgs...)...)
						out, _ := cmd.StdoutPipe()
						if err := cmd.Start(); err != nil {
							b.Error(err)
							return
						}
						n := 0
						sc := bufio.NewScanner(out)
						for sc.Scan() {
							n++
						}
						if err := cmd.Wait(); err != nil {
							b.Error(err)
						}
						mu.Lock()
						total += n
						if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
							rss = max(rss, ru.Maxrss)
						}
						mu.Unlock()
					})
				}
				wg.Wait()
				if total != liveBenchKeys {
					b.Fatalf("redis-cli --scan listed %d keys", total)
				}
			})
		}
		b.ReportMetric(float64(rss)/1024, "peak-heap-MiB") // one redis-cli's peak resident size
		lat.report(b)
	})
}

// seedBench writes the benchmark's keys, each on its slot's master: 40%
// orders, 20% profiles, 20% settings, 10% feed items on one slot, 10%
// other services' keys.
func seedBench(b *testing.B, masters []*redistest.Server) {
	b.Helper()
	conns := make([]*redistest.Conn, len(masters))
	for i, m := range masters {
		c, err := redistest.Dial(m.Addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	sent := make([]int, len(masters))
	flush := func(i int) {
		if err := conns[i].Flush(); err != nil {
			b.Fatal(err)
		}
		for range sent[i] {
			if _, err := conns[i].Receive(); err != nil {
				b.Fatal(err)
			}
		}
		sent[i] = 0
	}
	for n := range liveBenchKeys {
		var key string
		switch user := n / 10; n % 10 {
		case 0, 1, 2, 3:
			key = fmt.Sprintf("order:{u%d}:%d", user, n%10)
		case 4, 5:
			key = fmt.Sprintf("user:{u%d}:profile", n/5)
			if n%10 == 5 {
				key = fmt.Sprintf("user:{u%d}:settings", n/5)
			}
		case 6, 7:
			key = fmt.Sprintf("user:{u%d}:settings:%d", user, n)
		case 8:
			key = fmt.Sprintf("feed:{global}:%d", n)
		default:
			key = fmt.Sprintf("legacy:cache:%d", n)
		}
		i := masterOf(slotcalc.Slot(key), len(masters))
		conns[i].Send("SET", key, "v")
		if sent[i]++; sent[i] == 10_000 {
			flush(i)
		}
	}
	for i := range conns {
		flush(i)
	}
}

// masterOf is the master of n that StartCluster gives slot.
func masterOf(slot, n int) int {
	for i := range n {
		if _, last := redistest.SlotRange(n, i); slot <= last {
			return i
		}
	}
	return n - 1
}

// latency is what the servers went through during a read: the slowest
// of the reader's commands on any node (INFO latencystats's p99.9, after
// CONFIG RESETSTAT), and what another client saw: a PING to a master
// every millisecond from a process of its own (this test binary, as
// TestPinger), its median and 99th percentile; microseconds.
type latency struct {
	p999, pingP50, pingP99 float64
}

// serverLatency runs work between a CONFIG RESETSTAT of every master and
// a read of their INFO latencystats, with the pinger on masters[0]
// meanwhile.
func serverLatency(b *testing.B, masters []*redistest.Server, work func()) latency {
	b.Helper()
	for _, m := range masters {
		c, err := redistest.Dial(m.Addr)
		if err != nil {
			b.Fatal(err)
		}
		c.Do("CONFIG", "RESETSTAT")
		c.Close()
	}
	pinger := exec.Command(os.Args[0], "-test.run=^TestPinger$")
	pinger.Env = append(os.Environ(), pingerEnv+"="+masters[0].Addr)
	stdin, _ := pinger.StdinPipe()
	var out bytes.Buffer
	pinger.Stdout = &out
	if err := pinger.Start(); err != nil {
		b.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the pinger connects
	work()
	stdin.Close()
	if err := pinger.Wait(); err != nil {
		b.Fatalf("pinger: %v\n%s", err, out.String())
	}
	var l latency
	for _, line := range strings.Split(out.String(), "\n") {
		if _, err := fmt.Sscanf(line, "pings p50 %g p99 %g", &l.pingP50, &l.pingP99); err == nil {
			break
		}
	}
	for _, m := range masters {
		c, err := redistest.Dial(m.Addr)
		if err != nil {
			b.Fatal(err)
		}
		info, _ := c.Do("INFO", "latencystats")
		c.Close()
		for _, line := range strings.Split(fmt.Sprint(info), "\r\n") {
			name, stats, ok := strings.Cut(strings.TrimPrefix(line, "latency_percentiles_usec_"), ":")
			if !ok || !readCommands[name] || name == "info" || name == "ping" {
				continue
			}
			_, p999, _ := strings.Cut(stats, "p99.9=")
			if os.Getenv("CROSSSLOT_BENCH_VERBOSE") != "" {
				b.Logf("%s %s: %s", m.Addr, name, stats)
			}
			if v, err := strconv.ParseFloat(p999, 64); err == nil {
				l.p999 = max(l.p999, v)
			}
		}
	}
	return l
}

func (l latency) report(b *testing.B) {
	b.ReportMetric(l.p999, "cmd-p99.9-µs")
	b.ReportMetric(l.pingP50, "ping-p50-µs")
	b.ReportMetric(l.pingP99, "ping-p99-µs")
}

// peakHeap samples the live heap every 5 ms into peak until stopped.
func peakHeap(peak *uint64) (stop func()) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			*peak = max(*peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// pingerEnv names the server TestPinger pings.
const pingerEnv = "CROSSSLOT_TEST_PINGER_ADDR"

// TestPinger is BenchmarkKeysLive's other client, run as a process of its
// own so that the reader's work does not delay its PINGs: it PINGs the
// server every millisecond until its standard input closes, then prints
// the latencies' median and 99th percentile. Run by itself, it checks
// that it measures: PINGs to a live server take more than nothing.
func TestPinger(t *testing.T) {
	addr := os.Getenv(pingerEnv)
	helper := addr != ""
	if !helper {
		addr = redistest.StartPlain(t).Addr
	}
	c, err := redistest.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan struct{})
	go func() {
		if helper {
			io.Copy(io.Discard, os.Stdin)
		} else {
			time.Sleep(200 * time.Millisecond)
		}
		close(done)
	}()
	var times []float64
	for {
		select {
		case <-done:
			if len(times) == 0 {
				t.Fatal("no PING answered")
			}
			slices.Sort(times)
			p50, p99 := times[len(times)/2], times[len(times)*99/100]
			if p99 <= 0 {
				t.Errorf("PINGs took %v µs", p99)
			}
			fmt.Printf("pings p50 %g p99 %g\n", p50, p99)
			return
		default:
		}
		start := time.Now()
		if _, err := c.Do("PING"); err != nil {
			t.Fatal(err)
		}
		times = append(times, float64(time.Since(start).Nanoseconds())/1e3)
		time.Sleep(time.Millisecond)
	}
}
