#!/usr/bin/env tclsh
# vhosts.tcl -- generate nginx server blocks from a site inventory.
# Usage: tclsh vhosts.tcl > sites.conf

set defaults [dict create \
    ports {http 80 https 443} \
    root /srv/www \
    index {index.html index.htm} \
    tls_dir /etc/ssl/sites]

set sites {
    shop.example.org  {tls 1 upstream 127.0.0.1:3000 aliases {www.shop.example.org}}
    blog.example.org  {tls 1 root /srv/blog}
    intranet.lan      {tls 0 ports {http 8080}}
    status.example.org {tls 1 upstream 127.0.0.1:9091 ports {http 80}}
}

proc site_conf {name overrides} {
    global defaults
    return [dict merge $defaults $overrides]
}

proc listen_lines {conf} {
    set lines {}
    lappend lines "    listen [dict get $conf ports http];"
    if {[dict get $conf tls]} {
        lappend lines "    listen [dict get $conf ports https] ssl;"
    }
    return $lines
}

proc tls_lines {name conf} {
    if {![dict get $conf tls]} { return {} }
    set dir [dict get $conf tls_dir]
    return [list \
        "    ssl_certificate     $dir/$name.crt;" \
        "    ssl_certificate_key $dir/$name.key;"]
}

proc body_lines {conf} {
    if {[dict exists $conf upstream]} {
        return [list \
            "    location / \{" \
            "        proxy_pass http://[dict get $conf upstream];" \
            "        proxy_set_header Host \$host;" \
            "    \}"]
    }
    return [list "    root [dict get $conf root];" \
                 "    index [join [dict get $conf index]];"]
}

proc server_block {name overrides} {
    set conf [site_conf $name $overrides]
    set names [concat [list $name] [expr {[dict exists $conf aliases] ? [dict get $conf aliases] : {}}]]
    set out [list "server \{" "    server_name [join $names];"]
    foreach part [list [listen_lines $conf] [tls_lines $name $conf] [body_lines $conf]] {
        foreach l $part { lappend out $l }
    }
    lappend out "\}"
    return [join $out \n]
}

set blocks {}
foreach {name overrides} $sites {
    lappend blocks [server_block $name $overrides]
}
puts [join $blocks \n\n]
