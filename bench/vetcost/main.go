// Command vetcost measures what crossslot adds to go vet, on real modules:
//
//	go run ./bench/vetcost [-n 5] [-modules github.com/redis/go-redis/v9@v9.23.0,github.com/hibiken/asynq@v0.26.0]
//	go run ./bench/vetcost -baseline /tmp/crossslot-old -bench vet.txt && benchstat -col /way vet.txt
//	go run ./bench/vetcost -modules testdata/cost/goredis,testdata/cost/glide -bench clients.txt
//
// For each module (fetched through the module proxy, copied to a scratch
// directory) it runs `go vet ./...` three ways, interleaved, n times each:
// stock (go vet's own analyzers), crossslot (-vettool=crossslot) and noop
// (-vettool=noop, a tool that declares a fact type, so that go vet runs it
// on every dependency, and type-checks without analyzing anything). It
// prints the medians of wall time, CPU time (user+system of go vet and its
// tools) and peak memory (the largest resident set among them), and the
// ratio (crossslot - noop) / (stock - noop): crossslot's own work against
// all of vet's analyzers' work, of the medians and of each way's best run.
// The build cache is warmed first; vet results
// are never reused. go vet keys its cache on the vet tool's identity and the
// analyzer flags, so every run changes one of them: stock vet gets a fresh
// -printf.funcs (a name no function has), crossslot and noop run from a
// fresh copy of their binary with a nonce appended (their -V=full identity
// is a hash of the executable; the loader ignores trailing bytes).
//
// With -baseline, a fourth way runs another crossslot binary (an older
// build), interleaved with the others, so that a change is measured against
// its baseline in the same run. With -bench FILE, every run is also written
// to FILE in Go's benchmark format (BenchmarkVet/module=M/way=W, ns/op for
// wall time, cpu-ns/op, peak-B), for benchstat.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

type sample struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

func main() {
	n := flag.Int("n", 5, "repetitions of each way")
	tool := flag.String("crossslot", "", "the crossslot binary to measure (default: built from this checkout)")
	modules := flag.String("modules", "github.com/redis/go-redis/v9@v9.23.0,github.com/hibiken/asynq@v0.26.0", "comma-separated MODULE@VERSION list")
	baseline := flag.String("baseline", "", "another crossslot binary to run as a fourth way, `baseline`, for comparison in the same run")
	benchOut := flag.String("bench", "", "also write every run to `FILE` in Go benchmark format, for benchstat")
	flag.Parse()
	log.SetFlags(0)

	scratch, err := os.MkdirTemp("", "vetcost")
	check(err)
	defer os.RemoveAll(scratch)
	root := repoRoot()
	crossslot := *tool
	if crossslot == "" {
		crossslot = build(root, "./cmd/crossslot", filepath.Join(scratch, "crossslot"))
	}
	noop := build(root, "./bench/vetcost/noop", filepath.Join(scratch, "noop"))
	log.Printf("go vet cost on %s/%s, %d CPUs, %d repetitions, medians", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), *n)

	var bench *os.File
	if *benchOut != "" {
		bench, err = os.Create(*benchOut)
		check(err)
		defer bench.Close()
		fmt.Fprintf(bench, "goos: %s\ngoarch: %s\npkg: github.com/crossslot/crossslot/bench/vetcost\n", runtime.GOOS, runtime.GOARCH)
	}
	nonce := rand.IntN(1_000_000) + 1_000_000
	for _, mod := range strings.Split(*modules, ",") {
		dir := fetch(mod, scratch)
		type way struct {
			name string
			args func(nonce int) []string
		}
		ways := []way{
			{"stock", func(nonce int) []string { return []string{fmt.Sprintf("-printf.funcs=nonce%d", nonce)} }},
			{"crossslot", func(nonce int) []string {
				return []string{"-vettool=" + stamped(scratch, "crossslot", crossslot, nonce)}
			}},
			{"noop", func(nonce int) []string { return []string{"-vettool=" + stamped(scratch, "noop", noop, nonce)} }},
		}
		if *baseline != "" {
			ways = append(ways, way{"baseline", func(nonce int) []string {
				return []string{"-vettool=" + stamped(scratch, "baseline", *baseline, nonce)}
			}})
		}
		for _, w := range ways { // warm the build cache and the module cache
			vet(dir, w.args(nonce))
			nonce++
		}
		got := map[string][]sample{}
		for range *n {
			for _, w := range ways {
				run := vet(dir, w.args(nonce))
				got[w.name] = append(got[w.name], run)
				nonce++
				if bench != nil {
					fmt.Fprintf(bench, "BenchmarkVet/module=%s/way=%s 1 %d ns/op %d cpu-ns/op %d peak-B\n",
						strings.ReplaceAll(mod, "/", "_"), w.name, run.wall.Nanoseconds(), run.cpu.Nanoseconds(), run.maxRSS)
				}
			}
		}
		report(mod, got)
	}
}

// stamped copies a vet tool, as the way name says, into the scratch
// directory (removed at the end) with the nonce appended, so go vet sees a
// new tool and reuses none of its results.
func stamped(scratch, way, tool string, nonce int) string {
	b, err := os.ReadFile(tool)
	check(err)
	out := filepath.Join(scratch, fmt.Sprintf("%s-%d", way, nonce))
	check(os.WriteFile(out, fmt.Appendf(b, "nonce%d", nonce), 0o755))
	return out
}

// vet runs go vet ./... in dir.
func vet(dir string, args []string) sample {
	cmd := exec.Command("go", append(append([]string{"vet"}, args...), "./...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil && cmd.ProcessState == nil {
		log.Fatalf("go vet in %s: %v\n%s", dir, err, out)
	}
	// A vet that reports findings exits 1; anything else is a failure.
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		log.Fatalf("go vet %v in %s exited %d:\n%s", args, dir, code, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return sample{
		wall: wall,
		cpu:  time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		// On Linux ru_maxrss is in KiB and, for a waited-for child, the
		// largest of it and its own waited-for descendants.
		maxRSS: ru.Maxrss << 10,
	}
}

func report(mod string, got map[string][]sample) {
	med := func(name string, f func(sample) float64) float64 {
		var xs []float64
		for _, s := range got[name] {
			xs = append(xs, f(s))
		}
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	wall := func(s sample) float64 { return s.wall.Seconds() }
	cpu := func(s sample) float64 { return s.cpu.Seconds() }
	rss := func(s sample) float64 { return float64(s.maxRSS) / (1 << 20) }
	fmt.Printf("\n%s\n", mod)
	fmt.Printf("  %-10s %9s %9s %12s\n", "way", "wall s", "cpu s", "peak MiB")
	for _, name := range []string{"stock", "crossslot", "noop", "baseline"} {
		if got[name] != nil {
			fmt.Printf("  %-10s %9.2f %9.2f %12.0f\n", name, med(name, wall), med(name, cpu), med(name, rss))
		}
	}
	best := func(name string, f func(sample) float64) float64 {
		m := f(got[name][0])
		for _, s := range got[name][1:] {
			m = min(m, f(s))
		}
		return m
	}
	ratio := func(stat func(string, func(sample) float64) float64, way string, f func(sample) float64) float64 {
		return (stat(way, f) - stat("noop", f)) / (stat("stock", f) - stat("noop", f))
	}
	// Medians, and the best run of each way (the least disturbed by the
	// machine's other work, which only ever adds time).
	for _, way := range []string{"crossslot", "baseline"} {
		if got[way] != nil {
			fmt.Printf("  (%s - noop) / (stock - noop): wall %.2f, cpu %.2f (medians); wall %.2f, cpu %.2f (best runs)\n", way,
				ratio(med, way, wall), ratio(med, way, cpu), ratio(best, way, wall), ratio(best, way, cpu))
		}
	}
}

// fetch downloads MODULE@VERSION through the module proxy, or takes a
// module directory of this repository (testdata/cost/glide), and copies it
// to a writable directory, where go vet may resolve its dependencies.
func fetch(mod, scratch string) string {
	var info struct{ Dir string }
	if st, err := os.Stat(mod); err == nil && st.IsDir() {
		info.Dir = mod
	} else {
		out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
		if err != nil {
			log.Fatalf("go mod download %s: %v", mod, err)
		}
		check(json.Unmarshal(out, &info))
	}
	dst := filepath.Join(scratch, strings.NewReplacer("/", "_", "@", "_").Replace(mod))
	check(os.CopyFS(dst, os.DirFS(info.Dir)))
	check(filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(path, map[bool]os.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
	}))
	return dst
}

func build(root, pkg, out string) string {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		log.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func repoRoot() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	check(err)
	return strings.TrimSpace(string(out))
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
