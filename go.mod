module github.com/tsqdb/tsq

go 1.26
