package flussql_test

// flinkTimeCases are the date/time functions over {x} (ts TIMESTAMP(3), ts2 TIMESTAMP(6),
// ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME, n INT; a leap day, month ends, a time before 1970),
// the session time zone UTC.
var flinkTimeCases = []flinkDiffCase{
	{"EXTRACT from TIMESTAMP", "SELECT k, EXTRACT(YEAR FROM ts), EXTRACT(QUARTER FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(DAY FROM ts), EXTRACT(HOUR FROM ts), EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts) FROM {x}", false},
	{"EXTRACT WEEK DOY DOW", "SELECT k, EXTRACT(WEEK FROM ts), EXTRACT(DOY FROM ts), EXTRACT(DOW FROM ts) FROM {x}", false},
	{"EXTRACT from DATE", "SELECT k, EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dt), EXTRACT(DAY FROM dt), EXTRACT(DOW FROM dt) FROM {x}", false},
	{"EXTRACT from TIMESTAMP_LTZ in UTC", "SELECT k, EXTRACT(HOUR FROM ltz), EXTRACT(DAY FROM ltz) FROM {x}", false},
	{"DATE_FORMAT", "SELECT k, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'), DATE_FORMAT(ts, 'yyyy/MM/dd HH:mm:ss.SSS') FROM {x}", false},
	{"DATE_FORMAT of LTZ in UTC", "SELECT k, DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm') FROM {x}", false},
	{"TIMESTAMPADD", "SELECT k, TIMESTAMPADD(DAY, n, ts), TIMESTAMPADD(HOUR, 5, ts), TIMESTAMPADD(SECOND, -1, ts) FROM {x}", false},
	{"TIMESTAMPADD MONTH clamps", "SELECT k, TIMESTAMPADD(MONTH, 1, ts), TIMESTAMPADD(YEAR, 1, ts), TIMESTAMPADD(MONTH, 1, dt) FROM {x}", false},
	{"TIMESTAMPDIFF", "SELECT k, TIMESTAMPDIFF(DAY, ts, ts2), TIMESTAMPDIFF(HOUR, ts, ts2), TIMESTAMPDIFF(SECOND, ts, ts2) FROM {x}", false},
	{"TIMESTAMPDIFF MONTH and YEAR", "SELECT k, TIMESTAMPDIFF(MONTH, ts, ts2), TIMESTAMPDIFF(YEAR, ts, ts2) FROM {x}", false},
	{"TIMESTAMPDIFF of DATEs", "SELECT k, TIMESTAMPDIFF(DAY, dt, DATE '2024-03-01') FROM {x}", false},
	{"interval arithmetic", "SELECT k, ts + INTERVAL '1' DAY, ts - INTERVAL '2' HOUR, dt + INTERVAL '1' MONTH FROM {x}", false},
	{"FLOOR and CEIL to unit", "SELECT k, FLOOR(ts TO HOUR), CEIL(ts TO DAY), FLOOR(ts TO MONTH) FROM {x}", false},
	{"CAST TIMESTAMP to DATE and STRING", "SELECT k, CAST(ts AS DATE), CAST(ts AS STRING), CAST(dt AS STRING), CAST(tm AS STRING) FROM {x}", false},
	{"CAST strings to temporal", "SELECT k, CAST('2024-02-29 10:00:00' AS TIMESTAMP(3)), CAST('2024-02-29' AS DATE), CAST('12:34:56' AS TIME) FROM {x} WHERE k = 1", false},
	{"CAST between TIMESTAMP and LTZ in UTC", "SELECT k, CAST(ts AS TIMESTAMP_LTZ(3)), CAST(ltz AS TIMESTAMP(3)) FROM {x}", false},
	{"CAST LTZ to STRING in UTC", "SELECT k, CAST(ltz AS STRING) FROM {x}", false},
	{"CAST TIMESTAMP precision", "SELECT k, CAST(ts2 AS TIMESTAMP(3)), CAST(ts AS TIMESTAMP(6)) FROM {x}", false},
	{"TIMESTAMP compared with a string", "SELECT k FROM {x} WHERE ts > '2024-01-01 00:00:00'", false},
	{"DATE compared with a DATE literal", "SELECT k FROM {x} WHERE dt <= DATE '2023-12-31'", false},
	{"TIMESTAMP and TIMESTAMP(6) compared", "SELECT k, ts < ts2 FROM {x}", false},
	{"ORDER BY TIMESTAMP", "SELECT k, ts FROM {x} ORDER BY ts DESC, k", true},
	{"MIN MAX of temporal", "SELECT MIN(ts), MAX(ts2), MIN(dt), MAX(tm), MAX(ltz) FROM {x}", false},
	{"GROUP BY a day", "SELECT CAST(ts AS DATE), COUNT(*) FROM {x} GROUP BY CAST(ts AS DATE)", false},
}

// flinkTimeKnown: where flussql's date/time functions differ from Flink's.
var flinkTimeKnown = map[string]string{
	"EXTRACT from TIMESTAMP":            flinkPre1970,
	"EXTRACT WEEK DOY DOW":              flinkPre1970,
	"EXTRACT from TIMESTAMP_LTZ in UTC": flinkPre1970,
	"FLOOR and CEIL to unit":            flinkPre1970 + " (FLOOR(TO MONTH) of 1969-12-31 is 1970-01-01)",
	"CAST TIMESTAMP to DATE and STRING": flinkPre1970,
	"GROUP BY a day":                    flinkPre1970,
	"CAST strings to temporal":          "CAST(string AS TIME) is not implemented in flussql (no Arrow kernel utf8 → time32)",
}

// flinkPre1970 is why Flink's EXTRACT, FLOOR and CAST AS DATE differ before 1970.
const flinkPre1970 = "Flink is wrong before 1970: 1969-12-31 23:00:00 has HOUR -1, YEAR 1970, DATE 1970-01-01 (it divides epoch milliseconds truncating toward zero); flussql's answers are right"

// flinkOracleZone is the session time zone of flinkZoneCases: eight hours east of UTC, no
// daylight saving.
const flinkOracleZone = "Asia/Shanghai"

// flinkZoneCases run with Flink's 'table.local-time-zone' = Asia/Shanghai: what depends on
// the session's zone (TIMESTAMP_LTZ shown, cast or taken apart) and what must not.
var flinkZoneCases = []flinkDiffCase{
	{"LTZ values are instants", "SELECT k, ltz FROM {x}", false},
	{"TIMESTAMP does not move", "SELECT k, ts, EXTRACT(HOUR FROM ts) FROM {x}", false},
	{"CAST LTZ to TIMESTAMP in a zone", "SELECT k, CAST(ltz AS TIMESTAMP(3)) FROM {x}", false},
	{"CAST TIMESTAMP to LTZ in a zone", "SELECT k, CAST(ts AS TIMESTAMP_LTZ(3)) FROM {x}", false},
	{"CAST LTZ to STRING in a zone", "SELECT k, CAST(ltz AS STRING) FROM {x}", false},
	{"EXTRACT from LTZ in a zone", "SELECT k, EXTRACT(HOUR FROM ltz), EXTRACT(DAY FROM ltz) FROM {x}", false},
	{"DATE_FORMAT of LTZ in a zone", "SELECT k, DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm') FROM {x}", false},
	{"CAST LTZ to DATE in a zone", "SELECT k, CAST(ltz AS DATE) FROM {x}", false},
}

// flinkZoneKnown: flussql has no session time zone (README: "Not supported yet"); it reads
// TIMESTAMP_LTZ in UTC. The instants agree ("LTZ values are instants").
var flinkZoneKnown = map[string]string{
	"TIMESTAMP does not move":         flinkPre1970,
	"CAST LTZ to TIMESTAMP in a zone": flinkNoZone,
	"CAST TIMESTAMP to LTZ in a zone": flinkNoZone,
	"CAST LTZ to STRING in a zone":    flinkNoZone,
	"EXTRACT from LTZ in a zone":      flinkNoZone,
	"DATE_FORMAT of LTZ in a zone":    flinkNoZone,
	"CAST LTZ to DATE in a zone":      flinkNoZone,
}

// flinkNoZone is why flussql differs under a session time zone.
const flinkNoZone = "flussql has no session time zone: it converts between TIMESTAMP_LTZ and wall-clock time in UTC, Flink in 'table.local-time-zone'"
