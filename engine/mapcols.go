package engine

// MapCols returns e with every column reference replaced by f's expression (the
// planner renumbers the columns of a condition it moves to another input this way).
func MapCols(e Expr, f func(*Col) Expr) Expr {
	if e == nil {
		return nil
	}
	if c, ok := e.(*Col); ok {
		return f(c)
	}
	kids := e.children()
	if len(kids) == 0 {
		return e
	}
	out := make([]Expr, len(kids))
	for i, k := range kids {
		out[i] = MapCols(k, f)
	}
	return e.rebuild(out)
}
