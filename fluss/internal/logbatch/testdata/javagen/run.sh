#!/bin/sh
# Runs the golden-vector generator (build it first: mvn -q package -DskipTests).
#   ./run.sh gen ../golden
#   ./run.sh decode arrow scalars some.bin [0,4]
set -e
here=$(cd "$(dirname "$0")" && pwd)
exec java --add-opens=java.base/java.nio=ALL-UNNAMED -Dorg.slf4j.simpleLogger.defaultLogLevel=off \
  -cp "$here/target/classes:$here/target/lib/*" flussql.javagen.Main "$@"
