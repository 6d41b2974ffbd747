package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// configName is the file lintcmd reads the checks of the packages in its
// directory and below from, as staticcheck does.
const configName = "staticcheck.conf"

// staticcheckName matches staticcheck's own check names and globs (SA1000,
// -ST*, S1*, QF1001, U1000), which a staticcheck.conf shared with staticcheck
// holds and crossslot has no use for.
var staticcheckName = regexp.MustCompile(`(?i)^-?(SA|S|ST|QF|U)(\d+|\d*\*)$`)

// checkConfigs reads every staticcheck.conf lintcmd could apply: in dir and
// its parents, and in the directories below dir where Go looks for packages.
// lintcmd takes a check name it does not know as a selection of nothing, so a
// typo would silently turn checks off; here it is an error, as it is in
// -checks. staticcheck's names are accepted: the file may be shared.
func checkConfigs(dir string) error {
	var paths []string
	for d := dir; ; d = filepath.Dir(d) {
		paths = append(paths, filepath.Join(d, configName))
		if filepath.Dir(d) == d {
			break
		}
	}
	walkErr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fs.SkipDir // a directory that cannot be read holds no config of ours to check
		}
		if d.IsDir() {
			name := d.Name()
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == configName && filepath.Dir(path) != dir {
			paths = append(paths, path)
		}
		return nil
	})
	if walkErr != nil {
		return walkErr
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
			if staticcheckName.MatchString(strings.TrimSpace(name)) {
				continue
			}
			if err := checkList(name); err != nil {
				return fmt.Errorf("%s: checks: %v", shortPath(path), err)
			}
		}
	}
	return nil
}
