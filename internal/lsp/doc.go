// Package lsp is crossslot's language server, `crossslot lsp`: it speaks
// the Language Server Protocol on stdin and stdout, beside gopls (which
// loads no external analyzers, golang/go#59869).
//
// It publishes the findings of every file of a Go file's package when the
// file is opened, saved or edited (unsaved buffers are analyzed after a
// short quiet spell), and when files change on disk; suggested fixes are
// offered as code actions, and a hover over a key expression tells its
// template, hash tag, slot and the keys sent with it.
//
// It keeps one loaded program for the workspace and checks again only the
// packages an edit changes and their importers. The files follow the jobs:
// the program and its loading (program.go), type-checking and analyzing a
// package (check.go), finding what an edit changes and checking it again
// (recheck.go), the order and budget of checks (schedule.go); the session
// and its messages (server.go), and one file per request or notification
// it answers (documents.go for opened, changed and watched files,
// diagnostics.go, codeactions.go, hover.go). The first
// open of a package the program does not hold yet is answered by go vet
// with the running executable as its tool (vet.go), which reuses the build
// cache and is as fast as go vet, while the program loads in the
// background. The executable must therefore be crossslot, whose main runs
// the analyzer under go vet's protocol.
//
// Findings are finding.Finding, severity from the table of checks; the
// messages are the types of package protocol.
package lsp
