// Command keyslot answers CLUSTER KEYSLOT without a server.
//
// Usage:
//
//	keyslot [-json] KEY...
//	keyslot [-json] -          # keys from standard input, one per line
//
// For each key it prints the slot, the hashed part (the hash tag, or the whole
// key when it has none) and the key. With several keys it ends by saying
// whether they share one slot and exits 1 when they do not, so scripts can use
// it as a check. With -json it prints one object per key:
// {"key":"user:{1}:a","slot":9842,"tag":"1"}, where tag is empty when the
// whole key is hashed; the verdict then goes to standard error.
//
// Exit status: 0 one slot, 1 several slots, 2 usage or input error.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/crossslot/crossslot/slotcalc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: keyslot [-json] KEY...
       keyslot [-json] -    (keys from standard input, one per line)

Prints each key's Redis Cluster hash slot, the part of the key that is hashed
(its {tag}, or the whole key), and the key. With several keys, exits 1 unless
they all share one slot. Use -- before keys that start with '-'.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("keyslot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage, "\nflags:\n")
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print one JSON object per key: {\"key\", \"slot\", \"tag\"}")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	keys, err := collectKeys(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "keyslot: %v\n", err)
		return 2
	}
	if len(keys) == 0 {
		fs.Usage()
		return 2
	}

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		for _, k := range keys {
			tag, _ := slotcalc.HashTag(k)
			if err := enc.Encode(struct {
				Key  string `json:"key"`
				Slot int    `json:"slot"`
				Tag  string `json:"tag"`
			}{k, slotcalc.Slot(k), tag}); err != nil {
				fmt.Fprintf(stderr, "keyslot: %v\n", err)
				return 1
			}
		}
	} else {
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		for _, k := range keys {
			fmt.Fprintf(tw, "%d\t%s\t%s\n", slotcalc.Slot(k), display(slotcalc.HashedPart(k)), display(k))
		}
		tw.Flush()
	}
	if len(keys) < 2 {
		return 0
	}
	verdictTo := io.Writer(out)
	if *asJSON {
		verdictTo = stderr // keep standard output one JSON object per line
	}
	slots := distinctSlots(keys)
	if len(slots) == 1 {
		fmt.Fprintf(verdictTo, "all %d keys share slot %d\n", len(keys), slots[0])
		return 0
	}
	fmt.Fprintf(verdictTo, "keys are on %d different slots (%s): a multi-key command with them fails with CROSSSLOT\n",
		len(slots), joinInts(slots))
	return 1
}

// collectKeys expands "-" into the lines of stdin. A line ends at "\n"; a
// "\r" before it is taken as part of a CRLF line ending, not of the key.
func collectKeys(args []string, stdin io.Reader) ([]string, error) {
	var keys []string
	readStdin := false
	for _, a := range args {
		if a != "-" {
			keys = append(keys, a)
			continue
		}
		if readStdin {
			return nil, errors.New(`"-" given more than once`)
		}
		readStdin = true
		r := bufio.NewReader(stdin)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
				keys = append(keys, line)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("reading standard input: %v", err)
			}
		}
	}
	return keys, nil
}

func distinctSlots(keys []string) []int {
	var slots []int
	seen := map[int]bool{}
	for _, k := range keys {
		if s := slotcalc.Slot(k); !seen[s] {
			seen[s] = true
			slots = append(slots, s)
		}
	}
	return slots
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// display shows a key as it is, or Go-quoted when it is empty or holds
// spaces, control characters or invalid UTF-8 that would garble the columns.
func display(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r) || r == '"'
	}) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
