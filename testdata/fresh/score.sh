#!/bin/bash
# score.sh BINARY SERVICE_DIR OUT: vet the service with BINARY and score it with /tmp/score; the
# labels are read with doc.go's script checks (scriptslot, undeclaredkey,
# missingkey) as the scorer's "script".
set -e
bin=$1; svc=$2; out=$3
tmp=$(mktemp -d)
cp -r "$svc"/. "$tmp"/
find "$tmp" -name '*.go' -exec sed -i -E '/\/\/ case [A-Z][0-9]+:/ { s/scriptslot|undeclaredkey|missingkey/script/g; s/, +/,/g }' {} +
(cd "$tmp" && GOFLAGS=-mod=mod go vet -vettool="$bin" -json ./... > "$out" 2>&1) || true
(cd "$tmp" && /tmp/score "$out")
rm -rf "$tmp"
