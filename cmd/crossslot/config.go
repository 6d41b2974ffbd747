package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/crossslot/crossslot/clustertarget"
)

// configName is the file lintcmd reads the checks of the packages in its
// directory and below from, as staticcheck does.
const configName = "staticcheck.conf"

// staticcheckName matches staticcheck's own check names and globs (SA1000,
// -ST*, S1*, QF1001, U1000), which a staticcheck.conf shared with staticcheck
// holds and crossslot has no use for.
var staticcheckName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^-?(SA|S|ST|QF|U)(\d+|\d*\*)$`) })

// configPaths lists where a file of a name may apply to the packages in
// dir and below: in dir and its parents, and in the directories below dir
// where Go looks for packages.
func configPaths(dir, name string) ([]string, error) {
	var paths []string
	for d := dir; ; d = filepath.Dir(d) {
		paths = append(paths, filepath.Join(d, name))
		if filepath.Dir(d) == d {
			break
		}
	}
	walkErr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && path == dir:
			return err // the run's own directory cannot be read: say so
		case err != nil && d != nil && d.IsDir():
			return fs.SkipDir // a directory below that cannot be read: the go command will say so if it holds packages
		case err != nil:
			return nil
		}
		if d.IsDir() {
			base := d.Name()
			if path != dir && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "vendor") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == name && filepath.Dir(path) != dir {
			paths = append(paths, path)
		}
		return nil
	})
	return paths, walkErr
}

// targetDigest hashes every crossslot.conf that may apply to the packages
// in dir and below, with its path. The analyzer reads them as it runs, and
// neither go vet's cache nor lintcmd's knows: go vet keys its results on
// the tool's -V=full answer, and lintcmd's cache lives in a directory per
// setting (separateCache), so both take this digest in, and an edited
// target is a new analysis.
func targetDigest(dir string) string {
	paths, _ := configPaths(dir, clustertarget.FileName) // a walk that fails part way hashes what it saw
	h := sha256.New()
	found := false
	for _, path := range paths {
		if data, err := os.ReadFile(path); err == nil {
			// The contents only: copies of one file (checkouts at other
			// paths) share go vet's results.
			fmt.Fprintf(h, "%d\x00", len(data))
			h.Write(data)
			found = true
		}
	}
	if !found {
		return "" // no file: the tool's identity is the binary's alone
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// checkTargets reads every crossslot.conf that may apply to the packages
// in dir and below. lintcmd reports an analyzer's error for a package as
// a finding of nothing and exits 0, so a bad file is caught here first: a
// usage error, as a bad -crossslot.target is.
func checkTargets(dir string) error {
	paths, err := configPaths(dir, clustertarget.FileName)
	if err != nil {
		return err
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // none there
		}
		if _, err := clustertarget.Read(shortPath(path), data); err != nil {
			return err
		}
	}
	return nil
}

// checkConfigs reads every staticcheck.conf lintcmd could apply: in dir and
// its parents, and in the directories below dir where Go looks for packages.
// lintcmd takes a check name it does not know as a selection of nothing, so a
// typo would silently turn checks off; here it is an error, as it is in
// -checks. staticcheck's names are accepted: the file may be shared.
func checkConfigs(dir string) error {
	paths, err := configPaths(dir, configName)
	if err != nil {
		return err
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // no such file; one that cannot be read is lintcmd's to report
		}
		var conf struct {
			Checks []string `toml:"checks"`
		}
		if _, err := toml.Decode(string(data), &conf); err != nil {
			continue // lintcmd reports syntax errors itself, as "config"
		}
		for _, name := range conf.Checks {
			if staticcheckName().MatchString(strings.TrimSpace(name)) {
				continue
			}
			if err := checkList(name); err != nil {
				return fmt.Errorf("%s: checks: %v", shortPath(path), err)
			}
		}
	}
	return nil
}
