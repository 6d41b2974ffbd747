// Package builders is the fixture of a fix that edits a key builder in
// another file than the finding's.
package builders

import "fmt"

func itemsKey(id int) string { return fmt.Sprintf("order:%d:items", id) }

func totalKey(id int) string { return fmt.Sprintf("order:%d:total", id) }
