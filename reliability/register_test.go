package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// registerOp is one call of a linearizability history over a primary-key table used as a set
// of registers (one per key): an upsert of a value no other call writes, or a point lookup.
type registerOp struct {
	Client int
	Key    int64
	Write  bool
	// Value is the value written, or the one a lookup returned (0: no row).
	Value int64
	// Outcome is what the write statement reported (writes only).
	Outcome outcome
	// Call and Return are when the call started and returned, from the start of the history.
	Call, Return time.Duration
}

func (op registerOp) String() string {
	if op.Write {
		return fmt.Sprintf("client %d %8.3fs–%8.3fs write key %d = %d (%s)", op.Client, op.Call.Seconds(), op.Return.Seconds(), op.Key, op.Value, op.Outcome)
	}
	return fmt.Sprintf("client %d %8.3fs–%8.3fs read  key %d → %d", op.Client, op.Call.Seconds(), op.Return.Seconds(), op.Key, op.Value)
}

// registerInput is what porcupine sees of a call: a write of Value, or a read.
type registerInput struct {
	Write bool
	Value int64
}

// registerModel is one register, initially 0 (no row): a write sets it, a read returns it.
var registerModel = porcupine.Model{
	Init: func() any { return int64(0) },
	Step: func(state, input, output any) (bool, any) {
		in := input.(registerInput)
		if in.Write {
			return true, in.Value
		}
		return output.(int64) == state.(int64), state
	},
	DescribeOperation: func(input, output any) string {
		in := input.(registerInput)
		if in.Write {
			return fmt.Sprintf("write %d", in.Value)
		}
		return fmt.Sprintf("read → %d", output.(int64))
	},
	DescribeState: func(state any) string { return fmt.Sprint(state.(int64)) },
}

// registerVerdict is the checker's answer for one key.
type registerVerdict struct {
	Key    int64
	Result porcupine.CheckResult
	Ops    int
	info   porcupine.LinearizationInfo
}

// checkRegisters checks each key's history for linearizability against registerModel:
//   - an acknowledged write took effect once, between its call and its return;
//   - a write with an unknown outcome may have taken effect once at any time after its call, or
//     never: it is given a return after the end of the history (the usual way to model a call
//     whose answer never came);
//   - a write reported not written never took effect: it is left out, so a read that returns its
//     value cannot be linearized;
//   - a write that matched no outcome or a partial one (single-row writes have neither) is
//     treated as unknown.
//
// timeout bounds the search per key (porcupine's problem is NP-complete; 0: no bound), after
// which the key's result is porcupine.Unknown. It returns one verdict per key, in key order.
func checkRegisters(ops []registerOp, timeout time.Duration) []registerVerdict {
	end := time.Duration(0)
	for _, op := range ops {
		end = max(end, op.Return, op.Call)
	}
	byKey := map[int64][]porcupine.Operation{}
	for _, op := range ops {
		ret := op.Return
		if op.Write {
			switch op.Outcome {
			case notWritten:
				continue
			case acked:
			default:
				ret = end + time.Second
			}
		}
		var out int64
		if !op.Write {
			out = op.Value
		}
		byKey[op.Key] = append(byKey[op.Key], porcupine.Operation{
			ClientId: op.Client, Input: registerInput{Write: op.Write, Value: op.Value},
			Call: int64(op.Call), Output: out, Return: int64(ret),
		})
	}
	keys := make([]int64, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	verdicts := make([]registerVerdict, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, info := porcupine.CheckOperationsVerbose(registerModel, byKey[k], timeout)
			verdicts[i] = registerVerdict{Key: k, Result: res, Ops: len(byKey[k]), info: info}
		}()
	}
	wg.Wait()
	return verdicts
}

// explainKey prints what a reader needs to see a key's anomaly, in call order: every write of
// the key (with its outcome) and its lookups, a run of lookups with the same answer and no write
// of the key between them on one line (with their count and the span of their calls); at most
// limit lines (the last ones, where a checker failure usually is, when cut).
func explainKey(ops []registerOp, key int64, limit int) string {
	var mine []registerOp
	for _, op := range ops {
		if op.Key == key {
			mine = append(mine, op)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].Call < mine[j].Call })
	var lines []string
	for i := 0; i < len(mine); i++ {
		op := mine[i]
		j := i
		for !op.Write && j+1 < len(mine) && !mine[j+1].Write && mine[j+1].Value == op.Value {
			j++
		}
		if j == i {
			lines = append(lines, op.String())
			continue
		}
		lines = append(lines, fmt.Sprintf("%s (×%d, the last called at %.3fs)", op, j-i+1, mine[j].Call.Seconds()))
		i = j
	}
	if len(lines) > limit {
		lines = append([]string{fmt.Sprintf("… %d earlier lines", len(lines)-limit)}, lines[len(lines)-limit:]...)
	}
	return strings.Join(lines, "\n")
}

// visualize writes porcupine's HTML view of a verdict (the longest linearizable prefix and
// where it stops) into dir and returns its path.
func visualize(dir string, v registerVerdict) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("linearizability-key-%d.html", v.Key))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return path, porcupine.Visualize(registerModel, v.info, f)
}

// registerHistory collects the calls of a run from many goroutines.
type registerHistory struct {
	start time.Time
	mu    sync.Mutex
	ops   []registerOp
}

func newRegisterHistory() *registerHistory { return &registerHistory{start: time.Now()} }

// since is the time from the start of the history, on the monotonic clock.
func (h *registerHistory) since() time.Duration { return time.Since(h.start) }

func (h *registerHistory) add(op registerOp) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, op)
}

func (h *registerHistory) snapshot() []registerOp {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]registerOp(nil), h.ops...)
}
