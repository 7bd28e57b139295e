#!/bin/sh
# Debian's antlr4 package ships the ANTLR tool jar without its dependencies;
# picireny runs `java -jar`, so merge them into one jar:
#   sudo apt-get install antlr4 && sh make_antlr_jar.sh /tmp/antlr4-complete.jar
# then run the suite with ANTLR_JAR=/tmp/antlr4-complete.jar.
set -e
out=${1:-antlr4-complete.jar}
d=$(mktemp -d)
cd "$d"
for j in antlr4 antlr4-runtime antlr3-runtime stringtemplate4 treelayout javax.json icu4j; do
  unzip -oq /usr/share/java/$j.jar -x 'META-INF/*'
done
printf 'Main-Class: org.antlr.v4.Tool\n' > manifest.txt
cd - > /dev/null
jar cfm "$out" "$d/manifest.txt" -C "$d" .
rm -rf "$d"
