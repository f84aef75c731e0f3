package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

func errTypeMismatch(e Expr, got, want arrow.DataType) error {
	return fmt.Errorf("engine: %s produced %s, want %s", e, got, want)
}
