package glideguard_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/options"

	"github.com/crossslot/crossslot/guard/glideguard"
	"github.com/crossslot/crossslot/internal/guardtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }

// recorder is a client that records what reaches it: the wrapped client
// of the guard in the tests without a server.
type recorder struct {
	interfaces.BaseClientCommands // nil: a call the guard forwards and the test does not expect panics
	sent                          []string
}

func (r *recorder) Rename(ctx context.Context, key, newKey string) (string, error) {
	r.sent = append(r.sent, "RENAME "+key+" "+newKey)
	return "OK", nil
}

func (r *recorder) SUnion(ctx context.Context, keys []string) (map[string]struct{}, error) {
	r.sent = append(r.sent, "SUNION "+strings.Join(keys, " "))
	return map[string]struct{}{}, nil
}

// TestRefusesBeforeSending: a command whose keys cross slots fails with the
// guard's CROSSSLOT and never reaches the client; one slot's keys do.
func TestRefusesBeforeSending(t *testing.T) {
	r := &recorder{}
	c := glideguard.Wrap(r, glideguard.Options{})
	ctx := context.Background()
	_, err := c.Rename(ctx, "user:1:a", "user:2:a")
	var ge *glideguard.Error
	if !errors.As(err, &ge) || !guardtest.CrossSlot(err) || ge.Command != "RENAME" {
		t.Fatalf("Rename across slots: %v, want the guard's CROSSSLOT", err)
	}
	if _, err := c.Rename(ctx, "user:{1}:a", "user:{1}:b"); err != nil {
		t.Fatalf("Rename on one slot: %v", err)
	}
	if _, err := c.SUnion(ctx, []string{"s:1", "s:2"}); !guardtest.CrossSlot(err) {
		t.Fatalf("SUnion across slots: %v", err)
	}
	if got := strings.Join(r.sent, "; "); got != "RENAME user:{1}:a user:{1}:b" {
		t.Fatalf("sent %q, want only the one-slot RENAME", got)
	}
}

// TestReportMode sends the command and reports the violation.
func TestReportMode(t *testing.T) {
	r := &recorder{}
	var got []glideguard.Violation
	c := glideguard.Wrap(r, glideguard.Options{Mode: glideguard.Report, Report: func(v glideguard.Violation) { got = append(got, v) }})
	if _, err := c.SUnion(context.Background(), []string{"s:1", "s:2"}); err != nil {
		t.Fatal(err)
	}
	if len(r.sent) != 1 || len(got) != 1 || got[0].Problem != "crossslot" {
		t.Fatalf("sent %v, reported %+v; want the command sent and one crossslot violation", r.sent, got)
	}
}

// calls are the methods the guard checks, each with two keys put in.
var calls = map[string]func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error{
	"Rename": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.Rename(ctx, a, b)
		return err
	},
	"RenameNX": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.RenameNX(ctx, a, b)
		return err
	},
	"Copy": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.Copy(ctx, a, b)
		return err
	},
	"SMove": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SMove(ctx, a, b, "m")
		return err
	},
	"SUnion": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SUnion(ctx, []string{a, b})
		return err
	},
	"SInter": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SInter(ctx, []string{a, b})
		return err
	},
	"SDiff": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SDiff(ctx, []string{a, b})
		return err
	},
	"SUnionStore": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SUnionStore(ctx, a, []string{b})
		return err
	},
	"SInterStore": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SInterStore(ctx, a, []string{b})
		return err
	},
	"SDiffStore": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SDiffStore(ctx, a, []string{b})
		return err
	},
	"PfCount": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.PfCount(ctx, []string{a, b})
		return err
	},
	"PfMerge": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.PfMerge(ctx, a, []string{b})
		return err
	},
	"MSetNX": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.MSetNX(ctx, map[string]string{a: "1", b: "2"})
		return err
	},
	"LCS": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.LCS(ctx, a, b)
		return err
	},
	"SortStore": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.SortStore(ctx, a, b)
		return err
	},
	"XRead": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.XRead(ctx, map[string]string{a: "0", b: "0"})
		return err
	},
	"ZUnionStore": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		_, err := c.ZUnionStore(ctx, a, options.KeyArray{Keys: []string{b}})
		return err
	},
	"InvokeScriptWithOptions": func(ctx context.Context, c interfaces.BaseClientCommands, a, b string) error {
		s := options.NewScript("return 1")
		defer s.Close()
		_, err := c.InvokeScriptWithOptions(ctx, *s, *options.NewScriptOptions().WithKeys([]string{a, b}))
		return err
	},
}

func addr(t *testing.T, hostPort string) (string, int) {
	t.Helper()
	host, port, ok := strings.Cut(hostPort, ":")
	n, err := strconv.Atoi(port)
	if !ok || err != nil {
		t.Fatalf("address %q", hostPort)
	}
	return host, n
}

// TestSameVerdictAsTheCluster calls every checked method with keys on one
// slot and on two, through a guarded standalone client on a plain server
// and through GLIDE's cluster client on the three-master cluster: the
// guard refuses exactly what the cluster refuses.
func TestSameVerdictAsTheCluster(t *testing.T) {
	plainHost, plainPort := addr(t, redistest.PlainAddr(t))
	clusterHost, clusterPort := addr(t, redistest.ClusterAddr(t))
	standalone, err := glide.NewClient(config.NewClientConfiguration().WithAddress(&config.NodeAddress{Host: plainHost, Port: plainPort}))
	if err != nil {
		t.Fatal(err)
	}
	defer standalone.Close()
	cluster, err := glide.NewClusterClient(config.NewClusterClientConfiguration().WithAddress(&config.NodeAddress{Host: clusterHost, Port: clusterPort}))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	guarded := glideguard.Wrap(standalone, glideguard.Options{Target: redistest.ServerTarget(t, redistest.ClusterAddr(t))})
	ctx := context.Background()
	refused := 0
	var disagree []string
	quietly(func() {
		for name, call := range calls {
			for _, kp := range [][2]string{{"glide:a", "glide:b"}, {"{glide}a", "{glide}b"}} {
				g := call(ctx, guarded, kp[0], kp[1])
				c := call(ctx, cluster, kp[0], kp[1])
				gRefused := guardtest.CrossSlot(g)
				if cRefused := c != nil && strings.Contains(c.Error(), "CrossSlot"); gRefused != cRefused {
					disagree = append(disagree, fmt.Sprintf("%s(%q, %q): the guard says %v, the cluster says %v", name, kp[0], kp[1], g, c))
				}
				if gRefused {
					refused++
				}
			}
		}
	})
	for _, d := range disagree {
		t.Error(d)
	}
	t.Logf("%d methods, each with keys on one slot and on two: the guarded standalone client and the cluster agree (%d refused)", len(calls), refused)
	if refused < len(calls) {
		t.Fatalf("only %d refusals for %d methods", refused, len(calls))
	}
}
