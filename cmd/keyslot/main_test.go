package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/slotcalc"
)

func runKeyslot(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestOneKey(t *testing.T) {
	code, out, _ := runKeyslot(t, "", "user:{123}:profile")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if want := "5970  123  user:{123}:profile\n"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}

func TestSameSlotKeysAlignAndPass(t *testing.T) {
	code, out, _ := runKeyslot(t, "", "user:{1000}:profile", "user:{1000}:settings")
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	want := "11326  1000  user:{1000}:profile\n" +
		"11326  1000  user:{1000}:settings\n" +
		"all 2 keys share slot 11326\n"
	if out != want {
		t.Fatalf("output\n%s\nwant\n%s", out, want)
	}
}

func TestCrossSlotKeysExitOne(t *testing.T) {
	code, out, _ := runKeyslot(t, "", "order:1", "order:2", "foo{}bar")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "14374  order:1   order:1\n" +
		"2117   order:2   order:2\n" +
		"14292  foo{}bar  foo{}bar\n" +
		"keys are on 3 different slots (14374, 2117, 14292): a multi-key command with them fails with CROSSSLOT\n"
	if out != want {
		t.Fatalf("output\n%s\nwant\n%s", out, want)
	}
}

func TestStdinKeys(t *testing.T) {
	code, out, _ := runKeyslot(t, "order:{42}:items\r\norder:{42}:status\n\n", "-")
	if code != 1 { // the empty line is the empty key, slot 0
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "8000 ") || !strings.HasPrefix(lines[1], "8000 ") ||
		!strings.HasPrefix(lines[2], `0     ""`) {
		t.Fatalf("output:\n%s", out)
	}
}

func TestJSON(t *testing.T) {
	code, out, errOut := runKeyslot(t, "", "-json", "user:{123}:profile", "plain", "{}x")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	type obj struct {
		Key  string `json:"key"`
		Slot int    `json:"slot"`
		Tag  string `json:"tag"`
	}
	var got []obj
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	for dec.More() {
		var o obj
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("bad JSON %q: %v", out, err)
		}
		got = append(got, o)
	}
	want := []obj{{"user:{123}:profile", 5970, "123"}, {"plain", slotcalc.Slot("plain"), ""}, {"{}x", slotcalc.Slot("{}x"), ""}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("object %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if strings.Count(out, "\n") != 3 {
		t.Errorf("want exactly one line per key, got %q", out)
	}
	if !strings.Contains(errOut, "3 different slots") {
		t.Errorf("verdict on stderr = %q", errOut)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-bogus", "k"}, {}, {"-", "-"}} {
		code, _, errOut := runKeyslot(t, "", args...)
		if code != 2 {
			t.Errorf("keyslot %q: exit %d, want 2", args, code)
		}
		if !strings.Contains(errOut, "keyslot") {
			t.Errorf("keyslot %q: stderr %q lacks usage or error", args, errOut)
		}
	}
	if code, out, _ := runKeyslot(t, "", "--", "-dash"); code != 0 || !strings.HasSuffix(out, "-dash\n") {
		t.Errorf("key after --: exit %d, output %q", code, out)
	}
}
