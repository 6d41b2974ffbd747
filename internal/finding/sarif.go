package finding

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0, as code-scanning dashboards read it:
//   - artifact URIs relative to the source root (the repository's), with
//     uriBaseId %SRCROOT% and the root declared in originalUriBaseIds;
//   - packages that could not be analyzed are tool execution notifications
//     of an invocation that did not succeed, not results at line 0;
//   - findings a directive silenced are results with an in-source
//     suppression, which dashboards show as dismissed;
//   - no region where there is no line.

// SARIFRun is what a SARIF log says besides the findings.
type SARIFRun struct {
	Tool, Version, InformationURI string
	Rules                         []Rule
	Root                          string   // absolute: %SRCROOT%
	Cwd                           string   // absolute: the invocation's working directory
	Args                          []string // the invocation's arguments
}

// Rule is one check as SARIF describes it.
type Rule struct {
	ID, Title, Help, HelpURI string
	Error                    bool // its findings fail a run by default
}

// WriteSARIF writes findings as a SARIF log of one run. Findings that say a
// package was not analyzed become notifications.
func WriteSARIF(w io.Writer, findings []Finding, run SARIFRun) error {
	out := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: run.Tool, Version: run.Version, InformationURI: run.InformationURI}},
		OriginalURIBaseIDs: map[string]sarifArtifact{
			"%SRCROOT%": {URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(run.Root) + "/"}).String()},
		},
		Results: []sarifResult{},
	}
	for _, r := range run.Rules {
		level := "warning"
		if r.Error {
			level = "error"
		}
		out.Tool.Driver.Rules = append(out.Tool.Driver.Rules, sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifMessage{Text: r.Title},
			Help:                 sarifMessage{Text: r.Help},
			HelpURI:              r.HelpURI,
			DefaultConfiguration: sarifConfiguration{Enabled: true, Level: level},
		})
	}
	inv := sarifInvocation{
		Arguments:           run.Args,
		WorkingDirectory:    sarifArtifact{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(run.Cwd)}).String()},
		ExecutionSuccessful: true,
	}
	loc := func(p, end Position, message string) sarifLocation {
		l := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(p.File, run.Root)}}
		if message != "" {
			l.Message = &sarifMessage{Text: message}
		}
		if p.Line > 0 {
			l.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line, StartColumn: p.Column, EndLine: end.Line, EndColumn: end.Column}
		}
		return l
	}
	for _, f := range findings {
		if f.NotAnalyzed() {
			inv.ExecutionSuccessful = false
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifMessage{Text: f.Message}})
			continue
		}
		res := sarifResult{
			RuleID:       f.Check,
			Kind:         "fail",
			Level:        "warning",
			Message:      sarifMessage{Text: f.Message},
			Locations:    []sarifLocation{loc(f.Pos, f.End, "")},
			Suppressions: []sarifSuppression{},
		}
		switch f.Severity {
		case Error:
			res.Level = "error"
		case Ignored:
			res.Suppressions = []sarifSuppression{{Kind: "inSource"}}
		}
		for i, r := range f.Related {
			l := loc(r.Pos, r.End, r.Message)
			l.ID = i + 1
			res.RelatedLocations = append(res.RelatedLocations, l)
			// Dashboards show a related location where the message links it.
			res.Message.Text += fmt.Sprintf("\n\t[%s](%d)", r.Message, i+1)
		}
		for _, fix := range f.Fixes {
			sf := sarifFix{Description: sarifMessage{Text: fix.Message}}
			byFile := map[string]int{}
			for _, e := range fix.Edits {
				i, ok := byFile[e.Pos.File]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.Pos.File] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifChange{ArtifactLocation: artifact(e.Pos.File, run.Root)})
				}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, sarifReplacement{
					DeletedRegion:   sarifRegion{StartLine: e.Pos.Line, StartColumn: e.Pos.Column, EndLine: e.End.Line, EndColumn: e.End.Column},
					InsertedContent: sarifMessage{Text: e.New},
				})
			}
			res.Fixes = append(res.Fixes, sf)
		}
		out.Results = append(out.Results, res)
	}
	out.Invocations = []sarifInvocation{inv}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Version: "2.1.0", Schema: sarifSchema, Runs: []sarifRun{out}})
}

const sarifSchema = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"

// artifact is file relative to root under %SRCROOT%, or an absolute file
// URI for a file outside root.
func artifact(file, root string) sarifArtifact {
	if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") && file != "" {
		return sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: "%SRCROOT%"}
	}
	return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()}
}

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds"`
	Invocations        []sarifInvocation        `json:"invocations"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules,omitempty"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	Help                 sarifMessage       `json:"help"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

type sarifInvocation struct {
	Arguments           []string            `json:"arguments,omitempty"`
	WorkingDirectory    sarifArtifact       `json:"workingDirectory"`
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string             `json:"ruleId"`
	Kind             string             `json:"kind"`
	Level            string             `json:"level"`
	Message          sarifMessage       `json:"message"`
	Locations        []sarifLocation    `json:"locations"`
	RelatedLocations []sarifLocation    `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix         `json:"fixes,omitempty"`
	Suppressions     []sarifSuppression `json:"suppressions"`
}

type sarifSuppression struct {
	Kind string `json:"kind"`
}

type sarifFix struct {
	Description     sarifMessage  `json:"description"`
	ArtifactChanges []sarifChange `json:"artifactChanges"`
}

type sarifChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion  `json:"deletedRegion"`
	InsertedContent sarifMessage `json:"insertedContent"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifLocation struct {
	ID               int           `json:"id,omitempty"`
	Message          *sarifMessage `json:"message,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}
