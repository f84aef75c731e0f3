# Sourced by the comparison scripts: compiles the Java side (testdata/interop/java, the
# official fluss-client of release $client) into the flussql cache once per source version,
# and sets jcp to its classpath. Needs java, javac and mvn; $client is set by the caller.
jdir=testdata/interop/java
cache=${FLUSSQL_CACHE:-$HOME/.cache/flussql}/bench-java/$(cat $jdir/pom.xml $jdir/src/main/java/flussql/interop/*.java | { cat; echo "$client"; } | sha256sum | cut -c1-16)
if [ ! -f "$cache/complete" ]; then
	mkdir -p "$cache"
	mvn -B -q -f $jdir/pom.xml org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath \
		-Dfluss.version="$client" -Dmdep.outputFile="$cache/classpath.txt" >&2
	javac -encoding UTF-8 -d "$cache/classes" -cp "$(cat "$cache/classpath.txt")" $jdir/src/main/java/flussql/interop/*.java
	touch "$cache/complete"
fi
jcp="$cache/classes:$(cat "$cache/classpath.txt")"
