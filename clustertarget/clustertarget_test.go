package clustertarget

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "latest"},
		{"latest", "latest"},
		{"redis", "redis:8.4"},
		{"Redis:7.0", "redis:7.0"},
		{"redis:7", "redis:7.4"},
		{"redis:7.4.1", "redis:7.4.1"},
		{"valkey", "valkey:9.1"},
		{"valkey:8", "valkey:8.1"},
		{"valkey:8.0", "valkey:8.0"},
		{"valkey:9.0:db16", "valkey:9.0:db16"},
		{"valkey:db4", "valkey:9.1:db4"},
		{"valkey9", "valkey:9.0"},
		{"valkey9:16", "valkey:9.0:db16"},
		{"azure-enterprise", "azure-enterprise:7.4"},
		{"redis-software:8.2", "redis-software:8.2"},
	} {
		got, err := Parse(c.in)
		if err != nil || got.String() != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", c.in, got, err, c.want)
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Errorf("Parse(%q.String()) = %v, %v; want %v", c.in, again, err, got)
		}
	}
	for _, in := range []string{"redis:7.3", "redis:6.2", "valkey:9.0:db0", "redis:8.4:db2", "valkey:8.1:db2", "dragonfly", "valkey9:x", "valkey:9.0:db16:x", "redis:7.4.x", "valkey:9:16"} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) took it", in)
			continue
		}
		if !strings.Contains(err.Error(), "want latest") {
			t.Errorf("Parse(%q): %v does not name the accepted values", in, err)
		}
	}
}

// TestRules: what each target accepts, by the servers' source (sort.c's
// patternHashSlot checks, Redis 7.4.0 and Valkey 8.0.0; GET "#" exempt from
// Redis 7.4.2 and Valkey 8.1; CLUSTERSCAN Valkey 9.1).
func TestRules(t *testing.T) {
	for _, c := range []struct {
		target                       string
		bySlot, getSelf, clusterScan bool
		dbs                          int
	}{
		{"latest", true, true, false, 1},
		{"redis:7.0", false, false, false, 1},
		{"redis:7.2", false, false, false, 1},
		{"redis:7.4.0", true, false, false, 1},
		{"redis:7.4.1", true, false, false, 1},
		{"redis:7.4.2", true, true, false, 1},
		{"redis:7.4", true, true, false, 1},
		{"redis:8.4", true, true, false, 1},
		{"valkey:7.2", false, false, false, 1},
		{"valkey:8.0", true, false, false, 1},
		{"valkey:8.1", true, true, false, 1},
		{"valkey:9.0:db16", true, true, false, 16},
		{"valkey:9.1", true, true, true, 1},
		{"azure-enterprise", true, true, false, 1},
	} {
		tg, err := Parse(c.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]bool{tg.SortPatternsBySlot(), tg.SortGetSelf(), tg.ClusterScan()}; got != [3]bool{c.bySlot, c.getSelf, c.clusterScan} {
			t.Errorf("%s: SortPatternsBySlot, SortGetSelf, ClusterScan = %v; want %v", c.target, got, [3]bool{c.bySlot, c.getSelf, c.clusterScan})
		}
		if tg.DatabaseCount() != c.dbs {
			t.Errorf("%s: DatabaseCount = %d; want %d", c.target, tg.DatabaseCount(), c.dbs)
		}
	}
	az, _ := Parse("azure-enterprise")
	if !az.ProxySplits("MGET") || az.ProxySplits("SUNIONSTORE") || Latest.ProxySplits("MGET") {
		t.Error("ProxySplits: only a proxy splits, and only DEL, EXISTS, MGET, MSET, TOUCH, UNLINK")
	}
}

// TestFind: the nearest crossslot.conf applies; a given target wins; a bad
// file is an error naming it.
func TestFind(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "svc", "internal", "store")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(dir, text string) {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var s Setting
	if tg, err := s.For(deep); err != nil || tg != Latest {
		t.Fatalf("no file: %v, %v; want latest", tg, err)
	}
	write(root, "# the cluster\ntarget = \"redis:7.0\"\n")
	write(filepath.Join(root, "svc"), `target = "valkey:9.0:db16"`)
	if tg, err := s.For(deep); err != nil || tg.String() != "valkey:9.0:db16" {
		t.Errorf("nearest file: %v, %v; want valkey:9.0:db16", tg, err)
	}
	if tg, err := s.For(root); err != nil || tg.String() != "redis:7.0" {
		t.Errorf("root file: %v, %v; want redis:7.0", tg, err)
	}
	given := Setting{}
	if err := given.Set("redis:7.2"); err != nil {
		t.Fatal(err)
	}
	if tg, err := given.For(deep); err != nil || tg.String() != "redis:7.2" {
		t.Errorf("given: %v, %v; want redis:7.2", tg, err)
	}
	for text, want := range map[string]string{
		`target = "redis:7.3"`: "has no release line 7.3",
		`target = "redis:6.2"`: "has no release line 6.2 (known: 7.0, 7.2, 7.4, 8.0, 8.2, 8.4); for an older redis, use redis:7.0, the oldest line whose rules were checked on a live cluster",
		`targt = "redis:7.0"`:  `unknown setting "targt"`,
		"target = [\n":         "crossslot.conf",
		`target = 7`:           "crossslot.conf",
	} {
		write(filepath.Join(root, "svc"), text)
		_, err := s.For(deep)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), filepath.Join("svc", FileName)) {
			t.Errorf("file %q: %v; want an error naming the file and %q", text, err, want)
		}
	}
}
