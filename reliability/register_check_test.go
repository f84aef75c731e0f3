package reliability

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ms builds a call interval in milliseconds for hand-written histories.
func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func w(client int, key, value int64, o outcome, call, ret int) registerOp {
	return registerOp{Client: client, Key: key, Write: true, Value: value, Outcome: o, Call: ms(call), Return: ms(ret)}
}

func r(client int, key, value int64, call, ret int) registerOp {
	return registerOp{Client: client, Key: key, Value: value, Call: ms(call), Return: ms(ret)}
}

// The checker on hand-written histories: it accepts what a linearizable register may answer
// and flags what it may not, so a pass in the fault tests means something.
func TestCheckRegisters(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []registerOp
		want porcupine.CheckResult
	}{
		{"empty key read before any write", []registerOp{r(0, 1, 0, 0, 5), w(1, 1, 10, acked, 10, 20), r(0, 1, 10, 30, 40)}, porcupine.Ok},
		{"read concurrent with a write sees the old value", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, acked, 20, 40), r(2, 1, 10, 25, 30), r(2, 1, 11, 45, 50)}, porcupine.Ok},
		{"read concurrent with a write sees the new value", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, acked, 20, 40), r(2, 1, 11, 25, 30), r(2, 1, 11, 45, 50)}, porcupine.Ok},
		{"stale read after an acknowledged write", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, acked, 20, 30), r(2, 1, 10, 40, 50)}, porcupine.Illegal},
		{"acknowledged write lost: read finds no row", []registerOp{
			w(0, 1, 10, acked, 0, 10), r(1, 1, 0, 20, 30)}, porcupine.Illegal},
		{"new value seen, then the old one again", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, acked, 20, 60), r(2, 1, 11, 25, 30), r(3, 1, 10, 35, 40)}, porcupine.Illegal},
		{"unknown write seen long after its call", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, unknown, 20, 30), r(2, 1, 10, 40, 50), r(2, 1, 11, 500, 510)}, porcupine.Ok},
		{"unknown write never seen", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, unknown, 20, 30), r(2, 1, 10, 40, 50), r(2, 1, 10, 500, 510)}, porcupine.Ok},
		{"unknown write seen, then undone", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, unknown, 20, 30), r(2, 1, 11, 40, 50), r(2, 1, 10, 60, 70)}, porcupine.Illegal},
		{"unknown write seen before its call", []registerOp{
			r(2, 1, 11, 0, 5), w(1, 1, 11, unknown, 20, 30)}, porcupine.Illegal},
		{"unknown write taking effect after a later acknowledged one", []registerOp{
			w(1, 1, 11, unknown, 0, 10), w(0, 1, 12, acked, 20, 30), r(2, 1, 11, 40, 50)}, porcupine.Ok},
		{"not-written write seen", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, notWritten, 20, 30), r(2, 1, 11, 40, 50)}, porcupine.Illegal},
		{"not-written write never seen", []registerOp{
			w(0, 1, 10, acked, 0, 10), w(1, 1, 11, notWritten, 20, 30), r(2, 1, 10, 40, 50)}, porcupine.Ok},
		{"read of a value nobody wrote", []registerOp{r(0, 1, 99, 0, 10)}, porcupine.Illegal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := checkRegisters(tc.ops, 10*time.Second)
			require.Len(t, v, 1)
			assert.Equal(t, tc.want, v[0].Result, "\n%s", explainKey(tc.ops, 1, 20))
		})
	}
}

// Keys are checked apart: a stale read on one key is reported for that key only.
func TestCheckRegistersPerKey(t *testing.T) {
	ops := []registerOp{
		w(0, 1, 10, acked, 0, 10), r(1, 1, 10, 20, 30),
		w(0, 2, 20, acked, 0, 10), w(0, 2, 21, acked, 15, 18), r(1, 2, 20, 20, 30),
		w(0, 3, 30, notWritten, 0, 10), r(1, 3, 0, 20, 30),
	}
	got := map[int64]porcupine.CheckResult{}
	for _, v := range checkRegisters(ops, 10*time.Second) {
		got[v.Key] = v.Result
	}
	assert.Equal(t, map[int64]porcupine.CheckResult{1: porcupine.Ok, 2: porcupine.Illegal, 3: porcupine.Ok}, got)
	assert.Equal(t, "client 0    0.000s–   0.010s write key 2 = 20 (acknowledged)\n"+
		"client 0    0.015s–   0.018s write key 2 = 21 (acknowledged)\n"+
		"client 1    0.020s–   0.030s read  key 2 → 20", explainKey(ops, 2, 10))
}

// The changelog cross-check on hand-written logs: a clean log passes, and each way the log can
// contradict the writes' outcomes is reported.
func TestCheckChangelog(t *testing.T) {
	ops := []registerOp{
		w(0, 1, 10, acked, 0, 10), w(0, 1, 11, acked, 20, 30), w(1, 1, 12, unknown, 40, 50),
		w(1, 1, 13, notWritten, 60, 70), w(0, 2, 20, acked, 0, 10),
	}
	clean := []changeRow{
		{"insert", 0, 1, 10}, {"insert", 1, 2, 20}, {"update_before", 2, 1, 10}, {"update_after", 3, 1, 11},
	}
	for _, tc := range []struct {
		name    string
		changes []changeRow
		final   map[int64]int64
		want    []string
	}{
		{"clean, unknown write absent", clean, map[int64]int64{1: 11, 2: 20}, nil},
		{"clean, unknown write present", append(clean[:4:4], changeRow{"update_before", 4, 1, 11}, changeRow{"update_after", 5, 1, 12}),
			map[int64]int64{1: 12, 2: 20}, nil},
		{"acknowledged write missing", clean[:3], map[int64]int64{1: 10, 2: 20}, []string{
			"acknowledged write is in the changelog 0 times, want once: client 0    0.020s–   0.030s write key 1 = 11 (acknowledged)",
			"key 1: the log ends with an update_before without its update_after",
		}},
		{"acknowledged write twice", append(clean[:4:4], changeRow{"update_before", 4, 1, 11}, changeRow{"update_after", 5, 1, 11}),
			map[int64]int64{1: 11, 2: 20}, []string{
				"acknowledged write is in the changelog 2 times, want once: client 0    0.020s–   0.030s write key 1 = 11 (acknowledged)",
			}},
		{"not-written write present", append(clean[:4:4], changeRow{"update_before", 4, 1, 11}, changeRow{"update_after", 5, 1, 13}),
			map[int64]int64{1: 13, 2: 20}, []string{
				"write reported not written is in the changelog (1 images): client 1    0.060s–   0.070s write key 1 = 13 (not written)",
			}},
		{"acknowledged write lost from the log, seen as a before image (anomaly 2 of issue 30)", []changeRow{
			{"insert", 0, 1, 10}, {"insert", 1, 2, 20}, {"update_before", 2, 1, 11}, {"update_after", 3, 1, 12}},
			map[int64]int64{1: 12, 2: 20}, []string{
				"acknowledged write is in the changelog 0 times, want once: client 0    0.020s–   0.030s write key 1 = 11 (acknowledged)",
				"key 1: update_before image 11 at offset 2, but the last change before it left 10 (a change the log does not hold)",
			}},
		{"a value the test never wrote", append(clean[:4:4], changeRow{"update_before", 4, 2, 20}, changeRow{"update_after", 5, 2, 99}),
			map[int64]int64{1: 11, 2: 99}, []string{
				"key 2: update_after at offset 5 holds value 99, which the test never wrote",
			}},
		{"final lookup disagrees with the log", clean, map[int64]int64{1: 10, 2: 20}, []string{
			"key 1: a lookup after the run returns 10, the changelog's last image is 11",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkChangelog(ops, tc.changes, tc.final))
		})
	}
}
