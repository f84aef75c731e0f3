#!/bin/sh
# Regenerates fluss_api.pb.go from fluss_api.proto with pinned tools:
# protoc 3.21.12 (Debian's protobuf-compiler) and protoc-gen-go v1.36.12.
# Idempotent: tools are installed only when missing or at another version,
# and the output is byte-identical for the same input.
set -eu

PROTOC_VERSION="libprotoc 3.21.12"
GEN_VERSION="v1.36.12"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
bin="$root/.cache/bin"

if ! command -v protoc >/dev/null 2>&1 || [ "$(protoc --version)" != "$PROTOC_VERSION" ]; then
	if command -v apt-get >/dev/null 2>&1; then
		apt-get install -y protobuf-compiler >/dev/null
	fi
	if [ "$(protoc --version 2>/dev/null)" != "$PROTOC_VERSION" ]; then
		echo "generate.sh: need $PROTOC_VERSION (apt-get install protobuf-compiler on Debian 12), have: $(protoc --version 2>/dev/null || echo none)" >&2
		exit 1
	fi
fi

if [ ! -x "$bin/protoc-gen-go" ] || ! "$bin/protoc-gen-go" --version | grep -q "$GEN_VERSION"; then
	mkdir -p "$bin"
	(cd "$root" && GOBIN="$bin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$GEN_VERSION")
fi

cd "$here"
PATH="$bin:$PATH" protoc --proto_path=. --go_out=. --go_opt=paths=source_relative fluss_api.proto
