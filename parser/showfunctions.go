package parser

// ShowFunctions is SHOW FUNCTIONS [LIKE '…']: the functions of the dialect
// (Flink's statement; flussql has no user-defined ones to tell apart).
type ShowFunctions struct {
	Like *string
}

func (*ShowFunctions) statement() {}

// String renders the statement.
func (s *ShowFunctions) String() string { return "SHOW FUNCTIONS" + likeClause(s.Like) }
