package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/crossslot/crossslot/internal/finding"
)

// The first answer for a package the language server has not loaded yet
// comes from go vet, run with this executable as its tool: go vet reuses
// the build cache's export data and facts, so it answers in the time of a
// go vet run, where a load from source takes several.

// vetTimeout bounds one go vet run.
const vetTimeout = 2 * time.Minute

// vetDir runs go vet on the package in dir and returns its findings, and
// the package's Go files, each to publish even without any. An error with
// files is a part of the findings that could not be read (a fix's file).
func vetDir(dir string) ([]finding.Finding, []string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), vetTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "vet", "-vettool="+self, "-json", ".")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run() // findings exit 0 with -json; a package that does not build fails
	found, values, ferr := finding.FromVet(out.String(), "crossslot", severity)
	if err != nil && values == 0 {
		return nil, nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(out.String()))
	}
	files, rerr := goFiles(dir)
	return found, files, errors.Join(ferr, rerr)
}

// goFiles are the Go files of a directory, those read before any error. A
// glob would take brackets in the path for a pattern.
func goFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	files := []string{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !e.IsDir() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files, err
}
