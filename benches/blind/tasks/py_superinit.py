#!/usr/bin/env python3
"""Alert fan-out service.

Each alert rule names one or more notification channels.  Channels share a
small base class that tracks retries and delivery statistics; optional
behaviour (throttling, templating) is layered on with mixins.
"""

import time
from collections import Counter, deque
from dataclasses import dataclass
from string import Template


@dataclass(frozen=True)
class Alert:
    rule: str
    severity: str
    host: str
    summary: str

    def key(self):
        return f"{self.rule}@{self.host}"


class Channel:
    """Base of all notification channels."""

    kind = "abstract"

    def __init__(self, name, retries, timeout=5.0):
        self.name = name
        self.retries = retries
        self.timeout = timeout
        self.stats = Counter()

    def deliver(self, alert):
        for attempt in range(self.retries + 1):
            if self._send(alert, attempt):
                self.stats["sent"] += 1
                return True
            self.stats["retry"] += 1
        self.stats["failed"] += 1
        return False

    def _send(self, alert, attempt):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name} retries={self.retries}>"


class TemplateMixin:
    """Render the alert text from a $-template before sending."""

    template = "[$severity] $rule on $host: $summary"

    def render(self, alert):
        return Template(self.template).safe_substitute(vars(alert))


class ThrottleMixin:
    """Drop repeats of the same alert key inside a sliding window."""

    def __init__(self, name, *args, window=60, **kwargs):
        # Cooperative init: pass everything else on down the MRO.
        super().__init__(name, **kwargs)
        self.window = window
        self.recent = deque()

    def allowed(self, alert, now=None):
        now = time.monotonic() if now is None else now
        while self.recent and now - self.recent[0][0] > self.window:
            self.recent.popleft()
        if any(k == alert.key() for _, k in self.recent):
            return False
        self.recent.append((now, alert.key()))
        return True


class LogChannel(TemplateMixin, Channel):
    kind = "log"

    def __init__(self, name, stream=None):
        super().__init__(name, retries=0)
        self.lines = stream if stream is not None else []

    def _send(self, alert, attempt):
        self.lines.append(self.render(alert))
        return True


class PagerChannel(ThrottleMixin, TemplateMixin, Channel):
    kind = "pager"
    template = "$severity $host $rule"

    def _send(self, alert, attempt):
        if not self.allowed(alert):
            return True  # silently throttled
        # A real pager gateway would go here; pretend the first try fails.
        return attempt > 0


CHANNEL_TYPES = {"log": LogChannel, "pager": PagerChannel}


def build_channels(config):
    channels = {}
    for name, spec in config.items():
        cls = CHANNEL_TYPES[spec["type"]]
        args = spec.get("args", ())
        channels[name] = cls(name, *args, **spec.get("options", {}))
    return channels


def route(alerts, rules, channels):
    for alert in alerts:
        for chan_name in rules.get(alert.rule, ["ops-log"]):
            channels[chan_name].deliver(alert)


CONFIG = {
    "ops-log": {"type": "log"},
    "oncall": {"type": "pager", "args": (3,), "options": {"window": 120}},
}

RULES = {
    "disk_full": ["ops-log", "oncall"],
    "high_load": ["ops-log"],
}


def main():
    channels = build_channels(CONFIG)
    alerts = [
        Alert("disk_full", "critical", "db-1", "/var at 97%"),
        Alert("high_load", "warning", "web-3", "load 12.4"),
        Alert("disk_full", "critical", "db-1", "/var at 98%"),
    ]
    route(alerts, RULES, channels)
    for ch in channels.values():
        print(ch, dict(ch.stats))


if __name__ == "__main__":
    main()
