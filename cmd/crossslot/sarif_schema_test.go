package main

import (
	"path/filepath"
	"testing"

	"github.com/xeipuuv/gojsonschema"
)

// sarifSchema is the OASIS SARIF 2.1.0 JSON schema (errata 01), as
// code-scanning services check uploads against it.
const sarifSchema = "../../testdata/sarif/sarif-schema-2.1.0.json"

// TestSARIFSchema validates what -f sarif writes, byte for byte, against the
// official SARIF 2.1.0 schema: for a run with findings, related locations and
// fixes, and for one with a package that could not be analyzed.
func TestSARIFSchema(t *testing.T) {
	schema := loadSARIFSchema(t)
	broken := brokenModule(t)
	for name, dir := range map[string]string{"example": exampleDir, "broken": broken} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, _ := runIn(t, dir, fixtureEnv(), crossslotBin, "-f", "sarif", "./...")
			result, err := schema.Validate(gojsonschema.NewStringLoader(stdout))
			if err != nil {
				t.Fatalf("SARIF is not JSON: %v\n%s\n%s", err, stdout, stderr)
			}
			for _, e := range result.Errors() {
				t.Errorf("SARIF 2.1.0 schema: %s", e)
			}
		})
	}
}

// TestSARIFSchemaCatchesErrors makes sure the schema test can fail: a
// document with a result whose level is not one SARIF defines is rejected.
func TestSARIFSchemaCatchesErrors(t *testing.T) {
	schema := loadSARIFSchema(t)
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"fatal","message":{"text":"m"}}]}]}`
	result, err := schema.Validate(gojsonschema.NewStringLoader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if result.Valid() {
		t.Error("the schema accepts a result with level \"fatal\"")
	}
}

func loadSARIFSchema(t *testing.T) *gojsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(sarifSchema)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := gojsonschema.NewSchema(gojsonschema.NewReferenceLoader("file://" + filepath.ToSlash(path)))
	if err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	return schema
}
