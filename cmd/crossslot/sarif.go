package main

import (
	"os"
	"path/filepath"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
)

// sarifRun is what the SARIF log says of this run besides its findings:
// the tool, its checks as rules (their severity from the table of checks,
// their help this project's), and %SRCROOT%, the repository's root, so that
// dashboards place the findings in the repository whatever directory the
// command ran in.
func sarifRun(cwd string, args []string) finding.SARIFRun {
	run := finding.SARIFRun{
		Tool:           "crossslot",
		Version:        version(),
		InformationURI: "https://github.com/crossslot/crossslot",
		Root:           sourceRoot(cwd),
		Cwd:            cwd,
		Args:           args,
	}
	for _, c := range analyzer.Checks() {
		run.Rules = append(run.Rules, finding.Rule{ID: c.Name, Title: c.Title, Help: c.Text, HelpURI: docURL, Error: c.Error})
	}
	return run
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
