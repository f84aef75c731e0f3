module github.com/flussql/flussql

go 1.26

require (
	github.com/apache/arrow-go/v18 v18.8.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/xwb1989/sqlparser v0.0.0-20180606152119-120387863bf2 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
