package parser

import "strings"

// The statements of Flink SQL that manage the jobs of a Flink cluster. flussql runs them on
// Flink, through the SQL gateway the DSN names (flink_gateway): SHOW JOBS and
// STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].

// ShowJobs is SHOW JOBS: the Flink cluster's jobs, with their status.
type ShowJobs struct{}

// StopJob is STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN]: stops a Flink job, taking a
// savepoint first with WITH SAVEPOINT (its path is the result).
type StopJob struct {
	JobID     string
	Savepoint bool
	Drain     bool
}

func (*ShowJobs) statement() {}
func (*StopJob) statement()  {}

// String renders the statement as canonical SQL.
func (*ShowJobs) String() string { return "SHOW JOBS" }

// String renders the statement as canonical SQL.
func (s *StopJob) String() string {
	out := "STOP JOB " + QuoteString(s.JobID)
	if s.Savepoint {
		out += " WITH SAVEPOINT"
	}
	if s.Drain {
		out += " WITH DRAIN"
	}
	return out
}

// stopJob parses the rest of STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN], after STOP.
func (p *ddlParser) stopJob() (Statement, error) {
	if err := p.expectWords("job"); err != nil {
		return nil, err
	}
	id, err := p.str("the job id as a string ('…'; SHOW JOBS lists them)")
	if err != nil {
		return nil, err
	}
	s := &StopJob{JobID: strings.TrimSpace(id)}
	if p.words("with", "savepoint") {
		s.Savepoint = true
	}
	if p.words("with", "drain") {
		s.Drain = true
	}
	switch {
	case !s.Savepoint && !s.Drain:
		return s, p.end("WITH SAVEPOINT", "WITH DRAIN")
	case !s.Drain:
		return s, p.end("WITH DRAIN")
	}
	return s, p.end()
}
