package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// fixSARIF makes lintcmd's SARIF what code-scanning dashboards accept:
//   - artifact URIs relative to the repository's root (the VCS root, else the
//     module's), with uriBaseId %SRCROOT% and the root declared in the run's
//     originalUriBaseIds — lintcmd writes them relative to the working
//     directory;
//   - packages that could not be analyzed (lintcmd's "compile" results, at
//     line 0) become tool execution notifications, and the invocation says
//     executionSuccessful: false;
//   - no region at line 0.
//
// It reports whether every package was analyzed.
func fixSARIF(run map[string]any) (analyzed bool) {
	cwd, err := os.Getwd()
	if err != nil {
		return true
	}
	root := sourceRoot(cwd)
	run["originalUriBaseIds"] = map[string]any{"%SRCROOT%": map[string]any{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(root) + "/"}).String()}}
	results, _ := run["results"].([]any)
	var kept, notes []any
	for _, r := range results {
		res, _ := r.(map[string]any)
		if res == nil {
			continue
		}
		if id, ok := res["ruleId"].(string); ok {
			res["ruleId"] = ourCategory(id)
		}
		if res["ruleId"] == "compile" {
			notes = append(notes, map[string]any{"level": "error", "message": res["message"]})
			continue
		}
		for _, key := range []string{"locations", "relatedLocations"} {
			locs, _ := res[key].([]any)
			for _, l := range locs {
				phys, _ := dig(l, "physicalLocation").(map[string]any)
				if phys == nil {
					continue
				}
				if art, ok := phys["artifactLocation"].(map[string]any); ok {
					if uri, ok := art["uri"].(string); ok {
						art["uri"] = rootRelative(cwd, root, uri)
						art["uriBaseId"] = "%SRCROOT%"
					}
				}
				if region, ok := phys["region"].(map[string]any); ok {
					if line, _ := region["startLine"].(float64); line < 1 {
						delete(phys, "region")
					}
				}
			}
		}
		kept = append(kept, r)
	}
	if kept == nil {
		kept = []any{}
	}
	run["results"] = kept
	if notes != nil {
		invocations, _ := run["invocations"].([]any)
		if len(invocations) == 0 {
			invocations = []any{map[string]any{}}
		}
		inv, _ := invocations[0].(map[string]any)
		if inv == nil {
			inv = map[string]any{}
			invocations[0] = inv
		}
		inv["executionSuccessful"] = false
		inv["toolExecutionNotifications"] = notes
		run["invocations"] = invocations
	}
	return notes == nil
}

// sourceRoot is the VCS root above dir (a directory holding .git), else the
// module root (go.mod), else dir.
func sourceRoot(dir string) string {
	module := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && module == "" {
			module = d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if module != "" {
		return module
	}
	return dir
}

// rootRelative turns a URI relative to cwd (or absolute) into one relative
// to root.
func rootRelative(cwd, root, uri string) string {
	path := uri
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		path = u.Path
	}
	path = filepath.FromSlash(path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return uri
	}
	return filepath.ToSlash(rel)
}

// withOurLinks runs lintcmd for SARIF and points the help links, which
// lintcmd sets to staticcheck's site, at this project's documentation.
func withOurLinks(args []string) int {
	captured, code := lintcmdOutput(args, "sarif")
	out, notAnalyzed := relinkSARIF(captured)
	os.Stdout.Write(out)
	if notAnalyzed && code != exitUsage {
		fmt.Fprintln(os.Stderr, "crossslot: some packages could not be analyzed (see the SARIF invocation's toolExecutionNotifications); exit 3")
		return exitNotAnalyzed
	}
	return code
}

// relinkSARIF rewrites the driver's informationUri and each rule's helpUri,
// and fixes the run (fixSARIF), saying whether some packages could not be
// analyzed; anything it cannot parse is passed through unchanged.
func relinkSARIF(out []byte) (_ []byte, notAnalyzed bool) {
	var log map[string]any
	if json.Unmarshal(out, &log) != nil {
		return out, false
	}
	runs, _ := log["runs"].([]any)
	for _, run := range runs {
		driver, _ := dig(run, "tool", "driver").(map[string]any)
		if driver == nil {
			continue
		}
		if run, ok := run.(map[string]any); ok {
			notAnalyzed = !fixSARIF(run) || notAnalyzed
		}
		driver["informationUri"] = "https://github.com/crossslot/crossslot"
		rules, _ := driver["rules"].([]any)
		for _, rule := range rules {
			if rule, ok := rule.(map[string]any); ok {
				rule["helpUri"] = docURL
			}
		}
		// lintcmd lists the rules in a map's order: sorted, the log is the
		// same on every run.
		slices.SortStableFunc(rules, func(a, b any) int {
			id := func(r any) string { s, _ := dig(r, "id").(string); return s }
			return strings.Compare(id(a), id(b))
		})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(log) != nil {
		return out, notAnalyzed
	}
	return b.Bytes(), notAnalyzed
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
