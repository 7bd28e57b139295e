#!/bin/sed -Ef
# md2html.sed -- convert a tiny subset of Markdown (as used in our CHANGELOG)
# into HTML fragments.  Run as:  sed -E -f md2html.sed CHANGELOG.md
#
# Supported: headings, bullet lists, code spans, emphasis, links,
# horizontal rules, and "Version x.y.z (date)" release headers.

# --- escape HTML special characters first --------------------------------
s/&/\&amp;/g
s/</\&lt;/g
s/>/\&gt;/g

# --- blank lines end paragraphs and lists ---------------------------------
/^[[:space:]]*$/ {
  x
  /^LIST$/ {
    s/.*//
    x
    i\
</ul>
    b end
  }
  x
  b end
}

# --- horizontal rules -----------------------------------------------------
/^(-{3,}|\*{3,}|_{3,})[[:space:]]*$/ {
  s/.*/<hr\/>/
  b end
}

# --- headings --------------------------------------------------------------
/^#{1,6} / {
  s/^(#{6}) (.*)$/<h6>\2<\/h6>/
  s/^(#{5}) (.*)$/<h5>\2<\/h5>/
  s/^(#{4}) (.*)$/<h4>\2<\/h4>/
  s/^(#{3}) (.*)$/<h3>\2<\/h3>/
  s/^(#{2}) (.*)$/<h2>\2<\/h2>/
  s/^(#{1}) (.*)$/<h1>\2<\/h1>/
  b inline
}

# --- release headers: "Version 1.2.3 (2021-04-05)" -------------------------
/^Version [0-9]+\.[0-9]+\.[0-9]+/ {
  # major, minor, patch and the date become attributes
  s/^Version ([0-9]+)\.([0-9]+)\.([0-9]+) \(([0-9-]+)\)$/<h2 class="release" data-major="\1" data-minor="\2" data-patch="\3" data-date="\4">Version \1.\2.\3<\/h2>/
  b end
}

# --- bullet lists ------------------------------------------------------------
/^[*+-] / {
  x
  /^LIST$/ !{
    s/.*/LIST/
    x
    i\
<ul>
    b item
  }
  x
  :item
  s/^[*+-] (.*)$/<li>\1<\/li>/
  b inline
}

# --- inline markup ---------------------------------------------------------
:inline
# code spans before emphasis so that `a*b` stays literal
s/`([^`]+)`/<code>\1<\/code>/g
# strong, then emphasis
s/\*\*([^*]+)\*\*/<strong>\1<\/strong>/g
s/__([^_]+)__/<strong>\1<\/strong>/g
s/\*([^*]+)\*/<em>\1<\/em>/g
s/(^|[^[:alnum:]])_([^_]+)_([^[:alnum:]]|$)/\1<em>\2<\/em>\3/g
# links: [text](url "title") and [text](url)
s/\[([^]]+)\]\(([^ )]+) "([^"]*)"\)/<a href="\2" title="\3">\1<\/a>/g
s/\[([^]]+)\]\(([^ )]+)\)/<a href="\2" title="\3">\1<\/a>/g
# issue references: #123 -> link to the tracker
s/(^|[[:space:]])#([0-9]+)/\1<a href="https:\/\/example.org\/issues\/\2">#\2<\/a>/g

# --- plain paragraphs ------------------------------------------------------
/^<(h[1-6]|li|hr)/ !{
  /^[[:space:]]*</ !s/^(.*)$/<p>\1<\/p>/
}

:end
$ {
  x
  /^LIST$/ {
    x
    a\
</ul>
    b
  }
  x
}
