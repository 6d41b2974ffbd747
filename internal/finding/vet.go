package finding

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// go vet -json prints, per package, a JSON object of findings by analyzer:
// {"pkg": {"crossslot": [diagnostic, ...]}}, or {"pkg": {"crossslot":
// {"error": ...}}} when the analyzer failed.

// VetJSON is one diagnostic of go vet -json.
type VetJSON struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename   string `json:"filename"`
			Start, End int    // byte offsets
			New        string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

// VetJSONValues splits go vet -json's output into its JSON values, one per
// package analyzed (an empty one for a package without findings). They
// come after "# pkg" lines, on stdout or stderr as Go releases have
// changed, and the go command's own lines ("go: downloading ...") may come
// before, between or after them: every value that starts a line is
// decoded. It returns those decoded before any error.
func VetJSONValues(text string) ([]json.RawMessage, error) {
	var values []json.RawMessage
	for i := strings.Index(text, "{"); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return values, err
		}
		values = append(values, v)
		rest := text[i+int(dec.InputOffset()):]
		next := strings.Index(rest, "\n{")
		if next < 0 {
			break
		}
		i = len(text) - len(rest) + next + 1
	}
	return values, nil
}

// FromVet reads the findings of analyzer name in go vet -json's output,
// with severity sev, and the JSON values it held (none when no package was
// analyzed: one that does not build has none). A fix whose file cannot be
// read is left out, its edits' places not known, and said in err.
func FromVet(text, name string, sev func(check string) Severity) (findings []Finding, values int, err error) {
	all, _ := VetJSONValues(text)
	lines := map[string][]int{} // line starts by file, for the edits' offsets
	for _, v := range all {
		var tree map[string]map[string]json.RawMessage
		if json.Unmarshal(v, &tree) != nil {
			continue
		}
		for _, byAnalyzer := range tree {
			var found []VetJSON
			if json.Unmarshal(byAnalyzer[name], &found) != nil {
				continue // an error, as {"error": ...}
			}
			for _, d := range found {
				f, ferr := d.finding(sev(d.Category), lines)
				findings = append(findings, f)
				err = errors.Join(err, ferr)
			}
		}
	}
	return findings, len(all), err
}

func (d VetJSON) finding(sev Severity, lines map[string][]int) (_ Finding, err error) {
	f := Finding{Check: d.Category, Severity: sev, Pos: vetPosition(d.Posn), Message: d.Message}
	f.End = f.Pos
	if d.End != "" {
		f.End = vetPosition(d.End)
	}
	for _, r := range d.Related {
		rel := Related{Pos: vetPosition(r.Posn), Message: r.Message}
		rel.End = rel.Pos
		if r.End != "" {
			rel.End = vetPosition(r.End)
		}
		f.Related = append(f.Related, rel)
	}
fixes:
	for _, fix := range d.SuggestedFixes {
		out := Fix{Message: fix.Message}
		for _, e := range fix.Edits {
			starts, ok := lines[e.Filename]
			if !ok {
				var rerr error
				if starts, rerr = lineStarts(e.Filename); rerr != nil {
					err = errors.Join(err, fmt.Errorf("the fix %q is not offered: %v", fix.Message, rerr))
					continue fixes
				}
				lines[e.Filename] = starts
			}
			out.Edits = append(out.Edits, Edit{Pos: offsetPosition(e.Filename, starts, e.Start), End: offsetPosition(e.Filename, starts, e.End), New: e.New})
		}
		f.Fixes = append(f.Fixes, out)
	}
	return f, err
}

// vetPosition reads go vet's "file:line:col".
func vetPosition(posn string) Position {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return Position{File: posn}
	}
	j := strings.LastIndexByte(posn[:i], ':')
	if j < 0 {
		return Position{File: posn}
	}
	line, _ := strconv.Atoi(posn[j+1 : i])
	col, _ := strconv.Atoi(posn[i+1:])
	return Position{File: posn[:j], Line: line, Column: col}
}

// lineStarts are the offsets at which a file's lines start.
func lineStarts(file string) ([]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts, nil
}

func offsetPosition(file string, starts []int, off int) Position {
	line := 0
	for line+1 < len(starts) && starts[line+1] <= off {
		line++
	}
	return Position{File: file, Line: line + 1, Column: off - starts[line] + 1}
}
