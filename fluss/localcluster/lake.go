package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A local lakehouse (Options.Lake): the cluster's datalake set to Iceberg or Paimon with a
// catalog on the local file system under the run folder, and Fluss's own tiering service
// running as a job on the local Flink (Flink.StartTiering), which copies every table created
// with 'table.datalake.enabled' = 'true' into the lake.
//
// What the servers need (Fluss 0.9.1): server.yaml entries 'datalake.format' and the lake's
// catalog options under 'datalake.<format>.' (Fluss strips the prefix and hands the rest to
// the lake's catalog: LakeStorageUtils, LakeCatalogDynamicLoader); and the lake plugin in
// the plugin folder ($FLUSS_PLUGINS_DIR/<format>/, loaded by DirectoryBasedPluginFinder,
// one class loader per subfolder, found through LakeStoragePluginSetUp by the plugin's
// identifier). The coordinator creates the lake table when a datalake-enabled table is
// created; without the plugin that CREATE TABLE fails.

// LakeFormat names a datalake format a local cluster can tier to: the value of Fluss's
// 'datalake.format' (ConfigOptions.DATALAKE_FORMAT).
type LakeFormat string

// The lake formats the launcher sets up.
const (
	// LakeIceberg is Apache Iceberg with a Hadoop catalog (a folder per table holding
	// metadata/ and data/) in the warehouse folder.
	LakeIceberg LakeFormat = "iceberg"
	// LakePaimon is Apache Paimon with a filesystem catalog in the warehouse folder.
	LakePaimon LakeFormat = "paimon"
)

// LakeFormats lists the formats the launcher knows, for flags and errors.
var LakeFormats = []LakeFormat{LakeIceberg, LakePaimon}

// ParseLakeFormat returns the format named s ("" gives "", no lake).
func ParseLakeFormat(s string) (LakeFormat, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return "", nil
	}
	for _, f := range LakeFormats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("localcluster: unknown lake format %q; the launcher sets up %s", s, lakeFormatList())
}

func lakeFormatList() string {
	names := make([]string, len(LakeFormats))
	for i, f := range LakeFormats {
		names[i] = string(f)
	}
	return strings.Join(names, " or ")
}

// Versions the lake jars are fetched at: the ones fluss-lake-* DefaultVersion is built
// against (the fluss pom's iceberg.version and paimon.version), and the Hadoop bundles the
// Fluss documentation names for each (Iceberg: io.trino.hadoop:hadoop-apache; Paimon: the
// flink-shaded-hadoop-2-uber that fluss-dist puts in plugins/paimon/).
const (
	IcebergVersion         = "1.10.1"
	PaimonVersion          = "1.3.1"
	icebergHadoopArtifact  = "io.trino.hadoop:hadoop-apache:3.3.5-2"
	paimonHadoopArtifact   = "org.apache.flink:flink-shaded-hadoop-2-uber:2.8.3-10.0"
	flussTieringArtifactID = "fluss-flink-tiering"
	// flinkRuntimeWeb is the Flink module whose WebSubmissionExtension adds the REST jar
	// handlers (/jars/upload, /jars/{id}/run); without it they answer "POST request not
	// allowed".
	flinkRuntimeWeb = "flink-runtime-web"
)

// TieringEntryClass is the main class of fluss-flink-tiering (its jar's manifest names it
// too): it parses --fluss.* (the client options, fluss.bootstrap.servers required),
// --datalake.format and --datalake.<format>.* (the lake catalog), --lake.tiering.* and
// builds the job (LakeTieringJobBuilder: TieringSource → TieringCommitter).
const TieringEntryClass = "org.apache.fluss.flink.tiering.FlussLakeTieringEntrypoint"

// lakeArtifacts are the Maven coordinates (group:artifact:version) of what a format needs:
// the lake plugin (a shaded jar carrying the format's library, Iceberg's; Paimon's comes as
// paimon-bundle) and a Hadoop bundle, which both the servers' plugin folder and Flink's
// classpath get.
func lakeArtifacts(f LakeFormat) []string {
	plugin := "org.apache.fluss:fluss-lake-" + string(f) + ":" + DefaultVersion
	switch f {
	case LakeIceberg:
		return []string{plugin, icebergHadoopArtifact}
	case LakePaimon:
		return []string{plugin, "org.apache.paimon:paimon-bundle:" + PaimonVersion, paimonHadoopArtifact}
	}
	return nil
}

// lakeFlinkArtifacts are what Flink's classpath gets besides the lake plugin: Flink's web
// module (flinkRuntimeWeb), the file connector and the format's Flink connector, with which the Fluss catalog
// reads a table's lake part alone (`t$lake`; without it: "Failed to create Iceberg catalog
// using reflection. Please make sure iceberg-flink-runtime is on the classpath").
func lakeFlinkArtifacts(f LakeFormat) []string {
	web := "org.apache.flink:" + flinkRuntimeWeb + ":" + FlinkVersion
	// The connectors' sources read through the file connector's classes (flink-dist carries
	// it in lib/; without: NoClassDefFoundError org/apache/flink/connector/file/src/util/Pool).
	files := "org.apache.flink:flink-connector-files:" + FlinkVersion
	switch f {
	case LakeIceberg:
		return []string{web, files, "org.apache.iceberg:iceberg-flink-runtime-" + flinkMinor + ":" + IcebergVersion}
	case LakePaimon:
		return []string{web, files, "org.apache.paimon:paimon-flink-" + flinkMinor + ":" + PaimonVersion}
	}
	return nil
}

// flinkMinor is the Flink line of FlinkVersion, as connector artifact names carry it.
const flinkMinor = "1.20"

// LakeJars are the jars of a local lakehouse, fetched into the cache.
type LakeJars struct {
	// Plugin are the jars of the servers' plugin folder plugins/<format>/, which Flink's
	// classpath gets too (the tiering job loads the lake plugin from there).
	Plugin []string
	// Flink are the jars Flink's classpath gets (FlinkOptions.ExtraJars): Plugin,
	// flink-runtime-web (which serves the JobManager's jar upload and run, and the web UI)
	// and the format's Flink connector (for `t$lake`).
	Flink []string
	// Tiering is fluss-flink-tiering, the tiering service's job jar.
	Tiering string
}

// copyPomTemplate fetches single artifacts (the %s: <artifactItem>s) with the dependency
// plugin's copy goal. fluss-lake-* are shaded jars whose published poms name a parent
// (org.apache.fluss:fluss-lake) that Maven Central does not serve: resolving them as
// dependencies (copy-dependencies, or copy of maven-dependency-plugin 3.x) fails on the
// missing parent, while copy of 2.10 resolves the jar alone. Their dependencies are inside
// them, so nothing transitive is wanted.
const copyPomTemplate = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by flussql's localcluster to fetch jars of a local lakehouse; not part of any build. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.flussql.localcluster</groupId>
  <artifactId>fluss-lake-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId>
    <artifactId>maven-dependency-plugin</artifactId>
    <version>` + copyPluginVersion + `</version>
    <configuration><artifactItems>
%s    </artifactItems></configuration>
  </plugin></plugins></build>
</project>
`

// copyPluginVersion is the dependency plugin whose copy goal needs no artifact descriptor.
const copyPluginVersion = "2.10"

// EnsureLakeJars fetches (once, into the cache beside the server's jars) the lake plugin
// and Hadoop bundle of format, the tiering service's jar and Flink's web module, and
// returns where they are.
func EnsureLakeJars(ctx context.Context, format LakeFormat) (LakeJars, error) {
	plugin := lakeArtifacts(format)
	if plugin == nil {
		return LakeJars{}, fmt.Errorf("localcluster: unknown lake format %q; the launcher sets up %s", format, lakeFormatList())
	}
	flinkOnly := lakeFlinkArtifacts(format)
	arts := append(append(append([]string(nil), plugin...), flinkOnly...), "org.apache.fluss:"+flussTieringArtifactID+":"+DefaultVersion)
	var items strings.Builder
	for _, a := range arts {
		g, rest, _ := strings.Cut(a, ":")
		id, v, _ := strings.Cut(rest, ":")
		fmt.Fprintf(&items, "      <artifactItem><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></artifactItem>\n", g, id, v)
	}
	lib, err := fetchWith(ctx, "lake-"+string(format)+"-"+DefaultVersion+"-flink-"+FlinkVersion, fmt.Sprintf(copyPomTemplate, items.String()),
		[]string{"org.apache.maven.plugins:maven-dependency-plugin:" + copyPluginVersion + ":copy"},
		"the "+string(format)+" lake plugin, its Flink connector and the tiering service of Fluss "+DefaultVersion,
		flussTieringArtifactID+"-"+DefaultVersion+".jar")
	if err != nil {
		return LakeJars{}, err
	}
	jar := func(a string) (string, error) {
		parts := strings.Split(a, ":")
		path := filepath.Join(lib, parts[1]+"-"+parts[2]+".jar")
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("localcluster: the lake jars in %s lack %s (remove that folder to fetch them again): %w", lib, filepath.Base(path), err)
		}
		return path, nil
	}
	var jars LakeJars
	for i, a := range arts {
		path, err := jar(a)
		if err != nil {
			return LakeJars{}, err
		}
		switch {
		case i < len(plugin):
			jars.Plugin = append(jars.Plugin, path)
		case i < len(plugin)+len(flinkOnly):
			jars.Flink = append(jars.Flink, path)
		default:
			jars.Tiering = path
		}
	}
	sort.Strings(jars.Plugin)
	jars.Flink = append(jars.Flink, jars.Plugin...)
	sort.Strings(jars.Flink)
	return jars, nil
}

// LakeOptions returns the 'datalake.*' entries of a lake of format with its warehouse in
// the folder warehouse: what server.yaml holds and what the tiering job is given as
// arguments (each key as --key value). Iceberg: a Hadoop catalog
// ('datalake.iceberg.type: hadoop'); Paimon: a filesystem catalog
// ('datalake.paimon.metastore: filesystem').
func LakeOptions(format LakeFormat, warehouse string) map[string]string {
	prefix := "datalake." + string(format) + "."
	opts := map[string]string{"datalake.format": string(format), prefix + "warehouse": warehouse}
	switch format {
	case LakeIceberg:
		opts[prefix+"type"] = "hadoop"
	case LakePaimon:
		opts[prefix+"metastore"] = "filesystem"
	}
	return opts
}

// setUpLake fetches the lake jars of the cluster's format, links them into the plugin
// folder plugins/<format>/ of the run folder (which the servers get as FLUSS_PLUGINS_DIR),
// makes the warehouse folder and returns the server.yaml entries of the lake.
func (c *Cluster) setUpLake(ctx context.Context, format LakeFormat) (map[string]string, error) {
	jars, err := EnsureLakeJars(ctx, format)
	if err != nil {
		return nil, err
	}
	plugins := filepath.Join(c.Dir, "plugins", string(format))
	if err := os.MkdirAll(plugins, 0o755); err != nil {
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	for _, jar := range jars.Plugin {
		link := filepath.Join(plugins, filepath.Base(jar))
		_ = os.Remove(link)
		if err := os.Symlink(jar, link); err != nil {
			return nil, fmt.Errorf("localcluster: %w", err)
		}
	}
	c.LakeFormat = format
	c.LakeWarehouse = filepath.Join(c.Dir, "lake", string(format))
	if err := os.MkdirAll(c.LakeWarehouse, 0o755); err != nil {
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	return LakeOptions(format, c.LakeWarehouse), nil
}
