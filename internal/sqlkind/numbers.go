package sqlkind

import (
	"math/big"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/types"
)

// ParseRat parses a plain or scientific decimal number exactly
// ([+-]digits[.digits][e[+-]digits]); big.Rat alone would also take fractions and hex.
func ParseRat(s string) (*big.Rat, bool) {
	t := strings.TrimLeft(s, "+-")
	if len(s)-len(t) > 1 {
		return nil, false
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	if ip+fp == "" || !digitsOnly(ip) || !digitsOnly(fp) {
		return nil, false
	}
	if hasExp {
		e := strings.TrimLeft(exp, "+-")
		if e == "" || len(exp)-len(e) > 1 || !digitsOnly(e) || len(e) > 4 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numberText is Kind.Text of the numeric kinds: the text must be a number.
func numberText(number func(string, types.DataType, string) (any, error)) func(string, types.DataType, string, *time.Location) (any, error) {
	return func(col string, t types.DataType, s string, _ *time.Location) (any, error) {
		return number(col, t, s)
	}
}
