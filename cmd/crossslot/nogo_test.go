package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/finding"
)

// TestAnalyzerAloneUnderUnitchecker: the analyzer, driven by unitchecker
// with nothing of this command (internal/nogodriver, as nogo drives it),
// finds in a module of two packages what crossslot's go vet finds: keys
// built by a function of one package (its facts) and sent by the other,
// and a finding in the builder's package itself.
func TestAnalyzerAloneUnderUnitchecker(t *testing.T) {
	driver := filepath.Join(t.TempDir(), "nogodriver")
	if out, err := exec.Command("go", "build", "-o", driver, "../../internal/nogodriver").CombinedOutput(); err != nil {
		t.Fatalf("go build nogodriver: %v\n%s", err, out)
	}
	dir := sortModule(t)
	files := map[string]string{
		"keys/keys.go": `package keys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Profile(id string) string  { return "user:" + id + ":profile" }
func Settings(id string) string { return "user:" + id + ":settings" }

func Both(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, Profile("1"), Settings("1"))
}
`,
		"use/use.go": `package use

import (
	"context"

	"example.com/sorts/keys"
	"github.com/redis/go-redis/v9"
)

func Load(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.Del(ctx, keys.Profile("7"), keys.Settings("7"))
	rdb.Del(ctx, keys.Profile("{7}"), keys.Settings("{7}"))
}
`,
	}
	writeFiles(t, dir, files)
	vet := func(tool string) []string {
		stdout, stderr, _ := runIn(t, dir, fixtureEnv(), "go", "vet", "-vettool="+tool, "-json", "./...")
		found, values, err := finding.FromVet(stdout+stderr, "crossslot", func(string) finding.Severity { return "" })
		if err != nil || values == 0 {
			t.Fatalf("go vet -vettool=%s: %v\n%s%s", filepath.Base(tool), err, stdout, stderr)
		}
		var out []string
		for _, f := range found {
			rel, _ := filepath.Rel(dir, f.Pos.File)
			out = append(out, strings.Join([]string{rel, f.Check, f.Message}, ": "))
		}
		slices.Sort(out)
		return out
	}
	alone, ours := vet(driver), vet(crossslotBin)
	if !slices.Equal(alone, ours) {
		t.Errorf("the analyzer alone finds\n\t%s\ncrossslot finds\n\t%s", strings.Join(alone, "\n\t"), strings.Join(ours, "\n\t"))
	}
	for _, want := range []string{`keys/keys.go: crossslot: MGet keys "user:1:profile"`, `use/use.go: crossslot: Del keys "user:7:profile"`} {
		if !slices.ContainsFunc(alone, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("the analyzer alone lacks %s...; it finds\n\t%s", want, strings.Join(alone, "\n\t"))
		}
	}
	if slices.ContainsFunc(alone, func(s string) bool { return strings.Contains(s, "{7}") }) {
		t.Errorf("the tagged keys of one slot are reported: %s", strings.Join(alone, "\n\t"))
	}
}
