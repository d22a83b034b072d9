// Package layout holds the test that keeps Arena's import rules: which part of the tree
// may depend on which. The rules are written once, as the table in layout_test.go, and
// docs/contributing.md explains them; `go test ./internal/layout` fails with the
// offending import chain when a change breaks one.
//
// The package has no code of its own: it exists so that the rules have a home that
// `go test ./...` runs.
package layout
