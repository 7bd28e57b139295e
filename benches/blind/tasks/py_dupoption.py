"""deploycfg.py -- merge the built-in defaults with a site config and print
the effective settings for each service.  Run: python3 deploycfg.py"""

import configparser
import textwrap

DEFAULTS = {
    "workers": "4",
    "timeout": "30",
    "log_level": "info",
    "bind": "127.0.0.1",
}

SITE_CONFIG = textwrap.dedent("""\
    # site.ini -- edited by hand on the staging box
    [DEFAULT]
    log_level = warning

    [api]
    bind = 0.0.0.0
    port = 8080
    workers = 8
    ; raised after the March incident
    timeout = 60

    [worker]
    port = 8090
    queue = jobs-high, jobs-low
    timeout = 120
    retries = 5

    [metrics]
    port = 9100
    bind = 10.1.0.5
    ; TODO drop once grafana is migrated
    timeout = 10
    log_level = error
    timeout = 15
""")

INT_KEYS = ("workers", "timeout", "port", "retries")


def load(text):
    parser = configparser.ConfigParser(defaults=DEFAULTS, interpolation=None)
    parser.read_string(text, source="site.ini")
    return parser


def effective(parser):
    result = {}
    for name in parser.sections():
        sect = parser[name]
        conf = {}
        for key, value in sect.items():
            if key in INT_KEYS:
                conf[key] = sect.getint(key)
            elif key == "queue":
                conf[key] = [q.strip() for q in value.split(",")]
            else:
                conf[key] = value
        result[name] = conf
    return result


def check(conf):
    problems = []
    ports = {}
    for name, c in conf.items():
        port = c.get("port")
        if port in ports:
            problems.append(f"{name} and {ports[port]} both use port {port}")
        ports[port] = name
        if c["timeout"] < 5:
            problems.append(f"{name}: timeout {c['timeout']}s is too short")
    return problems


def show(conf):
    width = max(len(k) for c in conf.values() for k in c)
    for name in sorted(conf):
        print(f"[{name}]")
        for key in sorted(conf[name]):
            print(f"  {key.ljust(width)} = {conf[name][key]}")


if __name__ == "__main__":
    conf = effective(load(SITE_CONFIG))
    for p in check(conf):
        print("warning:", p)
    show(conf)
