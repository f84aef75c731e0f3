package fluss

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// Wire values of PbAlterConfig.op_type and PbAddColumn.column_position_type.
const (
	alterOpSet        = 0
	alterOpDelete     = 1
	columnPositionEnd = 0 // LAST
)

type changeKind int

const (
	changeSetProperty changeKind = iota + 1
	changeResetProperty
	changeAddColumn
)

// TableChange is one change of Admin.AlterTable; build it with SetTableProperty,
// ResetTableProperty or AddColumn.
type TableChange struct {
	kind  changeKind
	key   string
	value string
	col   types.Column
	agg   *types.AggFunction
}

// SetTableProperty sets a table property ('table.…' options and custom properties).
//
// The server files keys that start with "table." as table options and
// every other key as a custom property. Fluss 0.9 lets only a few table
// options change after creation (table.datalake.enabled — only on tables
// created while the cluster had a datalake format —,
// table.datalake.freshness, table.log.tiered.local-segments); Fluss 1.0
// alters twelve, among them table.log.ttl, table.log.local-ttl and the
// table.auto-partition.* options, but the table.datalake.* ones only on
// tables created while the cluster had a datalake format (a log table
// without a bucket key may still turn table.datalake.enabled on). Any other
// "table." key fails with flusserr.InvalidAlterTableException (the error lists what the
// server alters). Custom properties are free.
func SetTableProperty(key, value string) TableChange {
	return TableChange{kind: changeSetProperty, key: key, value: value}
}

// ResetTableProperty removes a table property (back to its default).
// Removing a property that is not set is not an error. The rules of
// SetTableProperty on "table." keys apply.
func ResetTableProperty(key string) TableChange {
	return TableChange{kind: changeResetProperty, key: key}
}

// AddColumn appends a column to the schema; Fluss 0.9 requires it nullable and last.
// The table gets a new schema id; rows written before read the column as
// NULL.
func AddColumn(col types.Column) TableChange {
	return TableChange{kind: changeAddColumn, col: col}
}

// AddAggColumn appends a column with its aggregate function to the schema of a table with
// the aggregation merge engine (the column's rows merge with agg: sum, listagg, …). Fluss 1.0
// added this to ALTER TABLE; AlterTable refuses it on an older server (which would add the
// column without the function) with an error matching ErrUnsupportedByServer.
func AddAggColumn(col types.Column, agg types.AggFunction) TableChange {
	return TableChange{kind: changeAddColumn, col: col, agg: &agg}
}

// String describes the change, e.g. "SET 'k' = 'v'" or "ADD COLUMN c INT".
func (tc TableChange) String() string {
	switch tc.kind {
	case changeSetProperty:
		return fmt.Sprintf("SET '%s' = '%s'", tc.key, tc.value)
	case changeResetProperty:
		return fmt.Sprintf("RESET '%s'", tc.key)
	case changeAddColumn:
		if tc.agg != nil {
			return fmt.Sprintf("ADD COLUMN %s %s (aggregated with %s)", tc.col.Name, tc.col.Type, tc.agg.Type)
		}
		return fmt.Sprintf("ADD COLUMN %s %s", tc.col.Name, tc.col.Type)
	}
	return "empty TableChange"
}

// AlterTable applies the changes in one request. A missing table is ErrTableNotExist
// unless ignoreIfNotExists.
//
// The 0.9 coordinator applies either property changes or column additions
// in one request, not both; the client refuses a mix (flusserr.InvalidAlterTableException)
// before sending, as it does a NOT NULL column or an empty change. After
// success the client forgets what it cached about the table, so
// Client.Table and lookups see the new definition; Table handles obtained
// before keep theirs (and keep working: they write with the old schema id,
// which the server accepts).
func (a *Admin) AlterTable(ctx context.Context, path TablePath, ignoreIfNotExists bool, changes ...TableChange) error {
	if err := path.check(); err != nil {
		return err
	}
	req, err := alterTableRequest(path, ignoreIfNotExists, changes)
	if err != nil {
		return err
	}
	if err := a.checkAggColumns(ctx, path, changes); err != nil {
		return err
	}
	defer a.c.invalidateTable(path)
	err = a.c.callCoordinator(ctx, protocol.AlterTable, req, &protocol.AlterTableResponse{})
	if err != nil {
		v, verr := a.c.ServerVersion(ctx)
		if verr != nil {
			v = ServerVersion{} // unknown: the hint names no release
		}
		return explainAlterError(path, v, err)
	}
	return nil
}

// alterTableRequest checks the changes and builds the request.
func alterTableRequest(path TablePath, ignoreIfNotExists bool, changes []TableChange) (*protocol.AlterTableRequest, error) {
	if len(changes) == 0 {
		return nil, invalidAlter("alter table %s: no change given", path)
	}
	req := &protocol.AlterTableRequest{TablePath: pbPath(path), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	names := map[string]bool{}
	for _, ch := range changes {
		switch ch.kind {
		case changeSetProperty, changeResetProperty:
			if ch.key == "" {
				return nil, invalidAlter("alter table %s: %s: empty property key", path, ch)
			}
			pc := &protocol.PbAlterConfig{ConfigKey: proto.String(ch.key), OpType: proto.Int32(alterOpDelete)}
			if ch.kind == changeSetProperty {
				pc.ConfigValue = proto.String(ch.value)
				pc.OpType = proto.Int32(alterOpSet)
			}
			req.ConfigChanges = append(req.ConfigChanges, pc)
		case changeAddColumn:
			pb, err := addColumnPb(path, ch.col)
			if err != nil {
				return nil, err
			}
			if ch.agg != nil {
				if ch.agg.Type == "" {
					return nil, invalidAlter("alter table %s: added column %q: the aggregate function has no name", path, ch.col.Name)
				}
				pb.AggFunctionType = proto.String(ch.agg.Type)
				for _, k := range slices.Sorted(maps.Keys(ch.agg.Parameters)) {
					pb.AggFunctionParams = append(pb.AggFunctionParams, &protocol.PbKeyValue{Key: proto.String(k), Value: proto.String(ch.agg.Parameters[k])})
				}
			}
			if names[ch.col.Name] {
				return nil, invalidAlter("alter table %s: column %q is added twice", path, ch.col.Name)
			}
			names[ch.col.Name] = true
			req.AddColumns = append(req.AddColumns, pb)
		default:
			return nil, invalidAlter("alter table %s: empty TableChange (build changes with SetTableProperty, ResetTableProperty or AddColumn)", path)
		}
	}
	if len(req.ConfigChanges) > 0 && len(req.AddColumns) > 0 {
		return nil, invalidAlter("alter table %s: Fluss applies property changes and added columns in separate requests; call AlterTable once for each", path)
	}
	return req, nil
}

func addColumnPb(path TablePath, col types.Column) (*protocol.PbAddColumn, error) {
	if col.Name == "" {
		return nil, invalidAlter("alter table %s: the added column needs a name", path)
	}
	if col.Type.NotNull {
		return nil, invalidAlter("alter table %s: added column %q is NOT NULL; Fluss only adds nullable columns (rows written before have no value for it)", path, col.Name)
	}
	js, err := types.MarshalDataType(col.Type)
	if err != nil {
		return nil, invalidAlter("alter table %s: added column %q: %v", path, col.Name, err)
	}
	pb := &protocol.PbAddColumn{
		ColumnName:         proto.String(col.Name),
		DataTypeJson:       js,
		ColumnPositionType: proto.Int32(columnPositionEnd),
	}
	if col.Comment != "" {
		pb.Comment = proto.String(col.Comment)
	}
	return pb, nil
}

func invalidAlter(format string, args ...any) error {
	return &Error{Code: flusserr.InvalidAlterTableException, NotSent: true, Message: fmt.Sprintf(format, args...)}
}

// alterableTableOptions lists the 'table.' options a server of release line v alters
// (FlussConfigUtils.ALTERABLE_TABLE_OPTIONS in apache/fluss v0.9.1 and 1.0); nil when v is
// not known.
func alterableTableOptions(v ServerVersion) []string {
	switch {
	case v.AtLeast(1, 0):
		return []string{"table.datalake.enabled", "table.datalake.historical-partition.enabled", "table.datalake.freshness",
			"table.datalake.auto-compaction", "table.log.ttl", "table.log.tiered.local-segments", "table.log.local-ttl",
			"table.auto-partition.enabled", "table.auto-partition.num-retention", "table.auto-partition.num-precreate",
			"table.statistics.columns", "table.kv.standby-replica.enabled"}
	case v.AtLeast(0, 9):
		return []string{"table.datalake.enabled", "table.datalake.freshness", "table.log.tiered.local-segments"}
	}
	return nil
}

// explainAlterError adds what the server's message leaves out. The 0.9
// coordinator reports some refusals (an unsupported column position, a
// NOT NULL column) as UNKNOWN_SERVER_ERROR with a Java stack trace; those
// are turned into flusserr.InvalidAlterTableException with the first line of the trace.
// A refused 'table.' option gets the list of those the server (of release
// line v) alters.
func explainAlterError(path TablePath, v ServerVersion, err error) error {
	fe, ok := err.(*Error)
	if !ok {
		return err
	}
	switch fe.Code {
	case flusserr.UnknownServerError:
		first, _, _ := strings.Cut(strings.TrimSpace(fe.Message), "\n")
		if rest, ok := strings.CutPrefix(first, "java.lang.IllegalArgumentException: "); ok {
			return &Error{Code: flusserr.InvalidAlterTableException,
				Message: fmt.Sprintf("alter table %s: %s", path, strings.TrimSpace(rest))}
		}
	case flusserr.InvalidAlterTableException, flusserr.InvalidConfigException:
		if strings.Contains(fe.Message, "not supported to alter") {
			hint := "keys without the 'table.' prefix are custom properties"
			if opts := alterableTableOptions(v); opts != nil {
				hint = fmt.Sprintf("Fluss %s alters only %s among the 'table.' options; %s", v, strings.Join(opts, ", "), hint)
			}
			return &Error{Code: fe.Code, cause: fe, Message: fe.Message + " (" + hint + ")"}
		}
	}
	return err
}

// checkAggColumns refuses added columns with an aggregate function on a server older than
// Fluss 1.0: its ALTER_TABLE has no field for the function and would add the column
// without it, silently.
func (a *Admin) checkAggColumns(ctx context.Context, path TablePath, changes []TableChange) error {
	var first *TableChange
	for i := range changes {
		if changes[i].agg != nil {
			first = &changes[i]
			break
		}
	}
	if first == nil {
		return nil
	}
	v, err := a.c.ServerVersion(ctx)
	if err != nil {
		return err
	}
	if v.AtLeast(1, 0) {
		return nil
	}
	return &unsupportedError{msg: fmt.Sprintf("fluss: alter table %s: adding column %q with aggregate function %s: %s: Fluss 1.0 added aggregate functions to ALTER TABLE's added columns, and the coordinator speaks Fluss %s, which would add the column without it; create the table with the column instead",
		path, first.col.Name, first.agg.Type, strings.TrimPrefix(ErrUnsupportedByServer.Error(), "fluss: "), v)}
}
