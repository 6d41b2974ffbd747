package analyzer

import (
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/clustertarget"
)

// Config holds the analyzer's settings.
type Config struct {
	// IncludeSingleNode also checks calls on *redis.Client and *redis.Conn.
	IncludeSingleNode bool
	// IncludeTests also checks calls in _test.go files whose client is not
	// proved to be a cluster client.
	IncludeTests bool
	// ProofsOnly reports only keys proved to be on different slots for
	// every value, leaving out the near-sure tier.
	ProofsOnly bool
	// SameValuesOnly leaves out keys of different values and keys that
	// start with a value that may hold a tag (see keymodel.Claims.Values).
	SameValuesOnly bool
	// Strict also reports, as check unprovable, commands and transactions
	// whose keys are not proved to share a slot.
	Strict bool
	// HotTags also reports, as check hottag, keys whose tag is one constant
	// while a per-entity value sits outside it.
	HotTags bool
	// ShowIgnored keeps the findings a //crossslot:ignore directive
	// silences, marked by a related position (see SilencedBy), for a front
	// end that lists them (the standalone command's -show-ignored). It is
	// no flag: a front end sets it.
	ShowIgnored bool
	// WithoutRelated drops the findings' related positions, for a front
	// end that shows each related position as an issue of its own
	// (golangci-lint); directives still match at them.
	WithoutRelated bool
	// WholeProgram says the driver loads every package of the run (the
	// standalone command, golangci-lint): a main package then decides the
	// calls of the packages it imports through interfaces implemented
	// where they cannot see. No flag: a front end sets it; go vet, which
	// runs each package apart, leaves those calls undecided.
	WholeProgram bool
	// Target is what runs the cluster (the flag; when not given, each
	// package's crossslot.conf): what it refuses besides CROSSSLOT.
	Target clustertarget.Setting
	// Coverage names a file that each package's Coverage is appended to.
	Coverage string
	// Inventory names a file that each package's Inventory (its key uses)
	// is appended to, for `crossslot keys`.
	Inventory string
	// OnInventory, when set, is given each package's Inventory, for a front
	// end that holds them (the language server's hover). No flag.
	OnInventory func(*Inventory)
	// OnInternalError, when set, is told of a package left unchecked after
	// an internal error (a panic it recovered from): the package, the
	// error and its first frames, for a front end that logs it (the
	// language server). No flag.
	OnInternalError func(pkg, err string, at []string)
	// Records says to report each package's Inventory and Coverage as one
	// diagnostic of category CategoryRecord (a Record as JSON), with
	// positions as absolute paths: a driver that caches diagnostics (the
	// standalone command's) keeps them with the findings, so that the key
	// map and the readiness report read a warm cache as the findings do.
	// No flag: a front end sets it, and drops the records from what it
	// shows.
	Records bool
	// FactsOnly says the driver runs the package for its facts alone, as
	// go vet runs a dependency of the packages it vets (the unit's
	// VetxOnly), and drops its diagnostics: no check runs, the package's
	// functions are summarized for the packages that import it. No flag:
	// a front end sets it.
	FactsOnly bool
}

// readingOptions are the settings the shared reading needs.
func (cfg *Config) readingOptions(t clustertarget.Target) reading.Options {
	return reading.Options{IncludeSingleNode: cfg.IncludeSingleNode, IncludeTests: cfg.IncludeTests, Claims: cfg.claims(),
		WholeProgram: cfg.WholeProgram, Pending: cfg.WholeProgram || cfg.Coverage != "", Target: t}
}

// claims are the cases two keys may be taken to differ on.
func (cfg *Config) claims() keymodel.Claims {
	return keymodel.Claims{NearSure: !cfg.ProofsOnly, Values: !cfg.ProofsOnly && !cfg.SameValuesOnly}
}

// Diagnostic categories: the checks' names (see checks).
const (
	CategoryCrossSlot   = "crossslot"
	CategoryEmptyTag    = "emptytag"
	CategoryDoubleTag   = "doubletag"
	CategoryUnclosedTag = "unclosedtag"
	CategoryUnprovable  = "unprovable"

	CategoryScriptSlot    = "scriptslot"
	CategoryUndeclaredKey = "undeclaredkey"
	CategoryMissingKey    = "missingkey"
	CategoryHotTag        = "hottag"

	// What else a cluster refuses or does differently (clusterreadiness.go).
	CategoryDatabase      = "database"
	CategorySortPattern   = "sortpattern"
	CategoryOneNode       = "onenode"
	CategoryShardedPubSub = "shardedpubsub"

	// go-redis's Ring, which shards by hash tag without a cluster (ring.go).
	CategoryRingShard = "ringshard"

	// A directive that cannot be honoured (ignore.go); the standalone
	// command also reports a //lint:ignore that silenced nothing under it.
	CategoryDirective = "directive"

	// A package's Record (Config.Records): not a finding.
	CategoryRecord = "record"
)
