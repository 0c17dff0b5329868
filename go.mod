module github.com/tsqdb/tsq

go 1.26

require github.com/klauspost/compress v1.20.4
