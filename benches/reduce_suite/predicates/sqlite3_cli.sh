#!/bin/sh
# the sqlite3 shell runs the script on tables t1..t3(a, b, c) and reports
# "no such column".
{ printf 'CREATE TABLE t1(a,b,c); CREATE TABLE t2(a,b,c); CREATE TABLE t3(a,b,c);\n'; cat "$1"; } \
  | sqlite3 -bail :memory: 2>&1 | grep -q 'no such column'
