package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// ecosystemDir is a service that imports what Go services import most
// (Prometheus's client and common, OpenTelemetry, gRPC and protobuf,
// x/net, the AWS SDK's core, Kubernetes's apimachinery and client-go,
// sqlx and pgx, zap and zerolog, cobra and viper, go-zero, gin, echo and
// fiber, testify) beside go-redis, with one bug.
const ecosystemDir = "../../testdata/ecosystem"

// ecosystemFinding is its bug, as every front end reports it.
const ecosystemFinding = `MGet keys "user:<id>:profile" and "user:<id>:settings" are on different hash slots for all but about 1 in 16384 values of id (assuming id holds no brace)`

// A run is one front end's run over the module: what it printed, its exit
// code, and what it cost.
type run struct {
	stdout, stderr string
	code           int
	wall, cpu      time.Duration
	peakRSS        int64 // KiB, the process and the children it waited for
}

// measured runs cmd and takes its cost from the kernel's account of it.
func measured(t *testing.T, cmd *exec.Cmd) run {
	t.Helper()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return costOf(cmd, start, stdout.String(), stderr.String())
}

// costOf is the run of cmd, ended, started at start: its output, exit code,
// and what the kernel says it cost.
func costOf(cmd *exec.Cmd, start time.Time, stdout, stderr string) run {
	r := run{stdout: stdout, stderr: stderr, wall: time.Since(start), code: cmd.ProcessState.ExitCode()}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = ru.Maxrss
	}
	return r
}

// crashed says what in a run's output shows that it crashed or failed on
// a package: a Go runtime's fatal error, a panic, an internal error.
func crashed(r run) string {
	for _, sign := range []string{"fatal error:", "panic:", "goroutine ", "internal error", "(internal)"} {
		if strings.Contains(r.stdout+r.stderr, sign) {
			return sign
		}
	}
	return ""
}

// TestEcosystem runs every front end over the ecosystem module and over
// the smallest module that once crashed the standalone command (a cold
// analysis cache each, as a new user's first run): go vet with crossslot,
// the standalone command, readiness, keys and the language server's check
// of the workspace. None may crash or leave a package unchecked, each
// finds the ecosystem's bug, and the time and peak memory of each are
// printed beside stock go vet's on the same module.
func TestEcosystem(t *testing.T) {
	if os.Getenv("CI") == "" && os.Getenv("CROSSSLOT_ECOSYSTEM") == "" {
		t.Skip("downloads and analyzes some 800 packages (minutes on a cold cache): CI runs it, or set CROSSSLOT_ECOSYSTEM=1")
	}
	for _, m := range []struct {
		dir     string
		finding string // "" for a module without a bug
	}{
		{ecosystemDir, ecosystemFinding},
		{filepath.Join(ecosystemDir, "repro"), ""},
	} {
		t.Run(filepath.Base(m.dir), func(t *testing.T) { ecosystemFrontEnds(t, m.dir, m.finding) })
	}
}

// ecosystemFrontEnds runs every front end over the module in dir.
func ecosystemFrontEnds(t *testing.T, dir, finding string) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	download := exec.Command("go", "mod", "download")
	download.Dir, download.Env = dir, fixtureEnv()
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	// Each front end gets a cache of its own, as on a first run; the
	// build cache is shared, as on a developer's machine.
	command := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(fixtureEnv(), "STATICCHECK_CACHE="+t.TempDir())
		return cmd
	}

	type row struct {
		name string
		run  run
	}
	var rows []row
	check := func(name string, r run, codes []int, out string) {
		t.Helper()
		rows = append(rows, row{name, r})
		if sign := crashed(r); sign != "" {
			t.Errorf("%s: %q in its output:\n%s\n%s", name, sign, r.stdout, r.stderr)
		}
		if !slices.Contains(codes, r.code) {
			t.Errorf("%s: exit %d, want one of %v\n%s\n%s", name, r.code, codes, r.stdout, r.stderr)
		}
		if out != "" && !strings.Contains(r.stdout+r.stderr, out) {
			t.Errorf("%s: the output does not have %q:\n%s\n%s", name, out, r.stdout, r.stderr)
		}
	}
	found, family := []int{0}, ""
	if finding != "" {
		found, family = []int{1}, "user:<id>:profile"
	}

	// A flag of vet's own, never set before, keeps stock vet from its
	// cached results: it analyzes every package again, as crossslot's
	// runs do, over the same export data.
	vet := measured(t, command("go", "vet", fmt.Sprintf("-printf.funcs=ecosystem%d", time.Now().UnixNano()), "./..."))
	check("go vet (stock analyzers)", vet, []int{0}, "")
	check("go vet -vettool=crossslot", measured(t, command("go", "vet", "-vettool="+crossslotBin, "./...")), found, finding)
	check("crossslot ./...", measured(t, command(crossslotBin, "./...")), found, finding)
	check("crossslot readiness ./...", measured(t, command(crossslotBin, "readiness", "./...")), []int{0, 1}, "")
	check("crossslot keys ./...", measured(t, command(crossslotBin, "keys", "./...")), []int{0}, family)
	check("crossslot lsp (the workspace's check)", ecosystemLSP(t, dir), []int{0, -1}, finding)

	var table strings.Builder
	fmt.Fprintf(&table, "%-40s %9s %9s %11s %9s\n", "front end", "wall", "CPU", "peak RSS", "vs vet")
	for _, r := range rows {
		fmt.Fprintf(&table, "%-40s %8.1fs %8.1fs %8d MiB %8.1f×\n", r.name, r.run.wall.Seconds(), r.run.cpu.Seconds(), r.run.peakRSS/1024,
			r.run.wall.Seconds()/vet.wall.Seconds())
	}
	t.Logf("%s, each front end on a cold analysis cache:\n%s", filepath.Base(dir), table.String())
}

// ecosystemLSP starts the language server in dir, opens a file and waits
// until the workspace's program is loaded and analyzed, then ends the
// server: what it published, and its cost.
func ecosystemLSP(t *testing.T, dir string) run {
	t.Helper()
	start := time.Now()
	c, cmd, _ := startLSP(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		t.Fatalf("no Go file in %s", dir)
	}
	file := files[0]
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(file), "languageId": "go", "version": 1, "text": ""}}, false)
	var how string
	var messages []string
	for how != "loaded and analyzed" {
		how, messages = c.analyzed(dir, file)
	}
	c.send("shutdown", nil, true)
	c.send("exit", nil, false)
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	return costOf(cmd, start, strings.Join(messages, "\n"), "")
}
