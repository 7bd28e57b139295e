// EXPR_GRAMMAR for picireny (the grammar-aware peer), whitespace skipped.
grammar Expr;
start_ : expr EOF ;
expr : term (('+' | '-') term)* ;
term : factor (('*' | '/') factor)* ;
factor : ('+' | '-') factor | '(' expr ')' | NUM ;
NUM : [0-9]+ ('.' [0-9]+)? ;
WS : [ \t\r\n]+ -> skip ;
