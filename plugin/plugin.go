// Package plugin makes crossslot a golangci-lint v2 module plugin.
//
// A custom golangci-lint built with this package (see the README's
// .custom-gcl.yml) knows the linter "crossslot", configured in .golangci.yml
// under linters.settings.custom.crossslot:
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
// Every analyzer flag has a setting of the same name and meaning; unknown
// settings are an error.
package plugin

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer"
)

func init() {
	register.Plugin("crossslot", New)
}

// Settings are the plugin's settings, named as the analyzer's flags.
type Settings struct {
	// IncludeSingleNode also checks calls on *redis.Client and *redis.Conn.
	IncludeSingleNode bool `json:"include-single-node"`
	// IncludeTests also checks calls in _test.go files on clients not
	// proved to be cluster clients.
	IncludeTests bool `json:"include-tests"`
	// ProofsOnly leaves out the near-sure tier of crossslot findings.
	ProofsOnly bool `json:"proofs-only"`
	// Strict also reports, as unprovable, batches not proved to share a slot.
	Strict bool `json:"strict"`
	// HotTags also reports keys with a constant tag and a varying rest.
	HotTags bool `json:"hot-tags"`
	// Coverage names a file each package's coverage is appended to.
	Coverage string `json:"coverage"`
}

// New builds the plugin for one configuration. golangci-lint calls it with
// the settings map of linters.settings.custom.crossslot.settings.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("crossslot settings: %w (known settings: %s)", err, strings.Join(SettingNames(), ", "))
	}
	return &plugin{settings: s}, nil
}

// SettingNames lists the settings a .golangci.yml may give.
func SettingNames() []string {
	var names []string
	t := reflect.TypeFor[Settings]()
	for i := range t.NumField() {
		names = append(names, t.Field(i).Tag.Get("json"))
	}
	return names
}

type plugin struct{ settings Settings }

// BuildAnalyzers returns an analyzer of its own for this configuration:
// nothing is shared with analyzers built for other configurations.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	cfg := &analyzer.Config{
		IncludeSingleNode: p.settings.IncludeSingleNode,
		IncludeTests:      p.settings.IncludeTests,
		ProofsOnly:        p.settings.ProofsOnly,
		Strict:            p.settings.Strict,
		HotTags:           p.settings.HotTags,
		Coverage:          p.settings.Coverage,
	}
	return []*analysis.Analyzer{analyzer.New(cfg)}, nil
}

// GetLoadMode asks for type information, which the analyzer's SSA needs.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
