# ruby must stop with "undefined method `upcase' for nil:NilClass (NoMethodError)" (a ~1.9 KB ticket digest whose config hash has "region" as a string key, read as :region)
timeout --foreground 5 ruby "$1" 2>&1 >/dev/null | head -1 | grep -qE "^.*:[0-9]+:in .*: undefined method \`upcase' for nil:NilClass \(NoMethodError\)$"
