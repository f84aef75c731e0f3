#!/usr/bin/env bash
# Regenerates vectors.json by running the real Fluss 0.9.1-incubating classes (Maven Central).
# Needs Maven and a JDK >= 19 (JAVA_HOME or PATH): the FLOAT/DOUBLE partition names follow
# Java's Float/Double.toString as specified since JDK 19 (JDK 17 prints some values longer).
# Build output goes to a temporary directory, not into the repo.
set -euo pipefail
cd "$(dirname "$0")"
bin="${JAVA_HOME:+$JAVA_HOME/bin/}"
major="$("${bin}java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [ "${major%%.*}" -lt 19 ]; then
	echo "generate.sh: need a JDK >= 19, found ${major}; set JAVA_HOME" >&2
	exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mvn -q -f pom.xml dependency:build-classpath -Dmdep.outputFile="$work/cp.txt"
cp="$(cat "$work/cp.txt")"
mkdir -p "$work/classes"
"${bin}javac" -encoding UTF-8 -d "$work/classes" -cp "$cp" src/main/java/flussql/vectors/*.java
"${bin}java" -cp "$work/classes:$cp" flussql.vectors.GenerateVectors > "$work/vectors.json"
mv "$work/vectors.json" vectors.json
echo "wrote $(pwd)/vectors.json"
