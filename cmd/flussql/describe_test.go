package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormatDDL(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{
			name: "partitioned primary-key table",
			in:   "CREATE TABLE db.users (user_id INT NOT NULL, region STRING NOT NULL, score BIGINT, PRIMARY KEY (user_id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket.key' = 'user_id', 'bucket.num' = '2')",
			want: "CREATE TABLE db.users (\n  user_id INT NOT NULL,\n  region STRING NOT NULL,\n  score BIGINT,\n  PRIMARY KEY (user_id, region) NOT ENFORCED\n)\nPARTITIONED BY (region)\nWITH (\n  'bucket.key' = 'user_id',\n  'bucket.num' = '2'\n)",
		},
		{
			name: "nested types, comments with commas and parentheses, a table comment",
			in:   "CREATE TABLE db.p (id INT NOT NULL, prefs MAP<STRING NOT NULL, INT>, addr ROW<city STRING, zip INT>, email STRING COMMENT 'a, b (c)', d DECIMAL(10, 2)) COMMENT 'it''s, (x)' WITH ('k' = 'v, w')",
			want: "CREATE TABLE db.p (\n  id INT NOT NULL,\n  prefs MAP<STRING NOT NULL, INT>,\n  addr ROW<city STRING, zip INT>,\n  email STRING COMMENT 'a, b (c)',\n  d DECIMAL(10, 2)\n)\nCOMMENT 'it''s, (x)'\nWITH (\n  'k' = 'v, w'\n)",
		},
		{
			name: "backquoted names with commas",
			in:   "CREATE TABLE `d`.`a,b` (`x,y` INT) WITH ('bucket.num' = '1')",
			want: "CREATE TABLE `d`.`a,b` (\n  `x,y` INT\n)\nWITH (\n  'bucket.num' = '1'\n)",
		},
		{
			name: "already over lines",
			in:   "CREATE TABLE t (\n  id INT\n)",
			want: "CREATE TABLE t (\n  id INT\n)",
		},
		{
			name: "not a CREATE TABLE with a column list",
			in:   "no parentheses here",
			want: "no parentheses here",
		},
		{
			name: "unbalanced",
			in:   "CREATE TABLE t (id INT",
			want: "CREATE TABLE t (id INT",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, formatDDL(tc.in))
		})
	}
}
