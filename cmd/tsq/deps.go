package main

// The subcommands reach the query engine, export, import, compaction and
// retention through the functions of the dep_*.go files, one file per
// package they need.
