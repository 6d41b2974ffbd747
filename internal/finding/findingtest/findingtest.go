// Package findingtest helps test that every format of a finding shows every
// field of it: Sample is a finding whose every field holds a value no other
// field holds, and Leaves lists those fields. A field added to
// finding.Finding appears in Leaves at once, and a format's test fails until
// the format shows it or says why it does not.
package findingtest

import (
	"fmt"
	"reflect"

	"github.com/crossslot/crossslot/internal/finding"
)

// Sample is a finding with one related position and one fix of one edit,
// each field set to a value of its own: paths end in the field's name, and
// numbers are distinct three-digit ones.
func Sample() finding.Finding {
	return finding.Finding{
		Check:    "samplecheck",
		Severity: finding.Error,
		Pos:      finding.Position{File: "/src/sample/pos.go", Line: 311, Column: 312},
		End:      finding.Position{File: "/src/sample/pos.go", Line: 313, Column: 314},
		Message:  "the sample message",
		Related: []finding.Related{{
			Pos:     finding.Position{File: "/src/sample/related.go", Line: 321, Column: 322},
			End:     finding.Position{File: "/src/sample/related.go", Line: 323, Column: 324},
			Message: "the related message",
		}},
		Fixes: []finding.Fix{{
			Message: "the fix message",
			Edits: []finding.Edit{{
				Pos: finding.Position{File: "/src/sample/edit.go", Line: 331, Column: 332},
				End: finding.Position{File: "/src/sample/edit.go", Line: 333, Column: 334},
				New: "the new text",
			}},
		}},
	}
}

// A Leaf is one field of a finding that holds a value: its path
// ("Related[0].Pos.Line") and its value.
type Leaf struct {
	Path  string
	Value any
}

// Leaves lists f's fields that hold values, depth first.
func Leaves(f finding.Finding) []Leaf {
	var out []Leaf
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				name := v.Type().Field(i).Name
				if path != "" {
					name = path + "." + name
				}
				walk(name, v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		default:
			out = append(out, Leaf{Path: path, Value: v.Interface()})
		}
	}
	walk("", reflect.ValueOf(f))
	return out
}
