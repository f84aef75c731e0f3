package reliability

import (
	"fmt"
	"sort"
)

// changeRow is one row of a primary-key table's t$changelog (columns id, v of the registers
// table): its change type, log offset, key and value (0: NULL).
type changeRow struct {
	Kind   string
	Offset int64
	Key    int64
	Value  int64
}

// checkChangelog compares the registers table's changelog with the writes of the history:
//   - every acknowledged write is in it exactly once as a new image ('insert' or
//     'update_after'), a write with an unknown outcome at most once, a not-written one never
//     (in no image at all), and no image holds a value the test never wrote or wrote to
//     another key;
//   - per key, in log order, the changes chain: 'insert' only when the key holds no row, each
//     'update_before' is the image the key held (the last new image before it) and is followed
//     by its 'update_after' — an acknowledged write that the log lost but the key-value store
//     applied shows up as a before image that no change produced;
//   - the last new image of each key in final is the value a lookup returned after the run.
//
// It returns one line per problem found.
func checkChangelog(ops []registerOp, changes []changeRow, final map[int64]int64) []string {
	var problems []string
	writes := map[int64]registerOp{}
	for _, op := range ops {
		if op.Write {
			writes[op.Value] = op
		}
	}
	images, anyImage := map[int64]int{}, map[int64]int{}
	byKey := map[int64][]changeRow{}
	for _, c := range changes {
		byKey[c.Key] = append(byKey[c.Key], c)
		if c.Value == 0 {
			problems = append(problems, fmt.Sprintf("key %d: %s at offset %d has a NULL value (the test writes none)", c.Key, c.Kind, c.Offset))
			continue
		}
		anyImage[c.Value]++
		if c.Kind == "insert" || c.Kind == "update_after" {
			images[c.Value]++
		}
		op, ok := writes[c.Value]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("key %d: %s at offset %d holds value %d, which the test never wrote", c.Key, c.Kind, c.Offset, c.Value))
		case op.Key != c.Key:
			problems = append(problems, fmt.Sprintf("key %d: %s at offset %d holds value %d, written to key %d", c.Key, c.Kind, c.Offset, c.Value, op.Key))
		}
	}
	values := make([]int64, 0, len(writes))
	for v := range writes {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
	for _, v := range values {
		op := writes[v]
		switch n := images[v]; {
		case op.Outcome == acked && n != 1:
			problems = append(problems, fmt.Sprintf("acknowledged write is in the changelog %d times, want once: %s", n, op))
		case op.Outcome == notWritten && anyImage[v] > 0:
			problems = append(problems, fmt.Sprintf("write reported not written is in the changelog (%d images): %s", anyImage[v], op))
		case op.Outcome != acked && op.Outcome != notWritten && n > 1:
			problems = append(problems, fmt.Sprintf("write with an unknown outcome is in the changelog %d times, want at most once: %s", n, op))
		}
	}
	keys := make([]int64, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		rows := byKey[k]
		sort.Slice(rows, func(i, j int) bool { return rows[i].Offset < rows[j].Offset })
		held, pendingBefore := int64(0), false
		for _, c := range rows {
			switch c.Kind {
			case "insert":
				if held != 0 || pendingBefore {
					problems = append(problems, fmt.Sprintf("key %d: insert of %d at offset %d while the key held %d", k, c.Value, c.Offset, held))
				}
				held = c.Value
			case "update_before":
				if pendingBefore || c.Value != held {
					problems = append(problems, fmt.Sprintf("key %d: update_before image %d at offset %d, but the last change before it left %d (a change the log does not hold)", k, c.Value, c.Offset, held))
				}
				pendingBefore = true
			case "update_after":
				if !pendingBefore {
					problems = append(problems, fmt.Sprintf("key %d: update_after %d at offset %d without its update_before", k, c.Value, c.Offset))
				}
				pendingBefore = false
				held = c.Value
			default:
				problems = append(problems, fmt.Sprintf("key %d: change %q at offset %d (the test deletes nothing)", k, c.Kind, c.Offset))
			}
		}
		if pendingBefore {
			problems = append(problems, fmt.Sprintf("key %d: the log ends with an update_before without its update_after", k))
		}
		if v, ok := final[k]; ok && v != held {
			problems = append(problems, fmt.Sprintf("key %d: a lookup after the run returns %d, the changelog's last image is %d", k, v, held))
		}
	}
	for k, v := range final {
		if _, ok := byKey[k]; !ok && v != 0 {
			problems = append(problems, fmt.Sprintf("key %d: a lookup after the run returns %d, the changelog has no change of it", k, v))
		}
	}
	return problems
}
