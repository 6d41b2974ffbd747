// Package eval turns an SSA value into the keys it can be (keymodel.Key):
// constants, concatenation, fmt.Sprintf and strconv (format.go), slices
// built from literals and appends (slices.go), range loops over fixed
// slices and loops over inputs that add one key per iteration (loops.go),
// a map's keys set in such a loop (maps.go), locals captured by closures (cells.go), the unexported
// package variables and struct fields a package only ever sets to one value
// (stores.go), and calls of key builders, whose summaries it fills with a
// call's arguments (instantiate.go).
//
// What a called function returns is the analysis's to know (it summarizes
// functions and reads other packages' facts): the Evaluator asks it through
// the Callees interface and holds nothing else of the analysis. eval imports
// keymodel and ssaread; it must not import clients or the analyzer package.
package eval
