package row

import "fmt"

// maxNanoOfMilli is the largest nanosecond-of-millisecond of a timestamp.
const maxNanoOfMilli = 1_000_000 - 1

func checkNanoOfMilli(n int32) error {
	if n < 0 || n > maxNanoOfMilli {
		return fmt.Errorf("row: nano-of-millisecond %d out of range 0..999999", n)
	}
	return nil
}
