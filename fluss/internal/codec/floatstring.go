package codec

import (
	"math"
	"strconv"
	"strings"
)

// floatString renders v like Java's Float.toString/Double.toString as specified
// since JDK 19 (shortest digits that round-trip; plain notation for 1e-3 <= |v| <
// 1e7, else d.dddE±n) with '.' replaced by '_', and NaN, Inf, -Inf: the partition
// value of a FLOAT/DOUBLE partition key. JDK 17 and older print a few values with
// more digits (Float.MIN_NORMAL: 1.17549435E-38 instead of 1.1754944E-38); Fluss
// clients on those JDKs name such partitions differently.
func floatString(v float64, bitSize int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strings.ReplaceAll(javaFloatToString(v, bitSize), ".", "_")
}

func javaFloatToString(v float64, bitSize int) string {
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(v, 'e', -1, bitSize) // shortest, e.g. -1.2345e+07
	if m, _, _ := strings.Cut(s, "e"); len(strings.TrimPrefix(m, "-")) == 1 {
		// Java (JDK 19+ spec) picks the closest decimal of length 1 or 2 when the
		// shortest has one digit: Double.MIN_VALUE is 4.9E-324, not 5.0E-324.
		s = strconv.FormatFloat(v, 'e', 1, bitSize)
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	if exp >= -3 && exp <= 6 {
		if exp < 0 {
			return sign + "0." + strings.Repeat("0", -exp-1) + digits
		}
		for len(digits) < exp+1 {
			digits += "0"
		}
		frac := digits[exp+1:]
		if frac == "" {
			frac = "0"
		}
		return sign + digits[:exp+1] + "." + frac
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}
