// Package plugin makes crossslot a golangci-lint v2 module plugin.
//
// A custom golangci-lint built with this package (see the .custom-gcl.yml
// of docs/golangci-lint.md) knows the linter "crossslot", configured in
// .golangci.yml under linters.settings.custom.crossslot:
//
//	linters:
//	  default: none
//	  enable: [crossslot]
//	  settings:
//	    custom:
//	      crossslot:
//	        type: module
//	        description: Redis Cluster CROSSSLOT bugs and malformed hash tags
//	        settings:
//	          include-single-node: false
//	          include-tests: false
//	          proofs-only: false
//	          strict: false
//	          hot-tags: false
//
// The settings are the analyzer's flags, of the same names and meanings
// (its settings and the opt-in checks of its table of checks); unknown
// settings are an error.
package plugin

import (
	"flag"
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
)

func init() {
	register.Plugin("crossslot", New)
}

// New builds the plugin for one configuration. golangci-lint calls it with
// the settings map of linters.settings.custom.crossslot.settings.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[map[string]any](settings)
	if err != nil {
		return nil, fmt.Errorf("crossslot settings: %w (known settings: %s)", err, strings.Join(SettingNames(), ", "))
	}
	// golangci-lint loads every package of the run, and shows each related
	// position as an issue of its own ("crossslot(related information):
	// ..."), so that one finding of two keys on two lines would count as two
	// issues: the message names both keys, and the positions are dropped
	// (after the directives matched them).
	a := analyzer.New(&analyzer.Config{WholeProgram: true, WithoutRelated: true})
	for name, value := range s {
		if err := set(&a.Flags, name, value); err != nil {
			return nil, fmt.Errorf("crossslot settings: %w (known settings: %s)", err, strings.Join(SettingNames(), ", "))
		}
	}
	return &plugin{analyzer: a}, nil
}

// set gives the flag name the setting's value: true or false for a
// switch, a string for the others.
func set(fs *flag.FlagSet, name string, value any) error {
	f := fs.Lookup(name)
	if f == nil {
		return fmt.Errorf("unknown setting %q", name)
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	switchFlag := ok && b.IsBoolFlag()
	_, isBool := value.(bool)
	_, isString := value.(string)
	switch {
	case switchFlag && !isBool:
		return fmt.Errorf("setting %s is true or false, not %v", name, value)
	case !switchFlag && !isString:
		return fmt.Errorf("setting %s is a string, not %v", name, value)
	}
	return f.Value.Set(fmt.Sprint(value))
}

// SettingNames lists the settings a .golangci.yml may give: the analyzer's
// flags.
func SettingNames() []string {
	var names []string
	analyzer.New(&analyzer.Config{}).Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// plugin holds an analyzer of its own for its configuration: nothing is
// shared with analyzers built for other configurations.
type plugin struct{ analyzer *analysis.Analyzer }

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.analyzer}, nil
}

// GetLoadMode asks for type information, which the analyzer's SSA needs.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
