-- sync.lua -- push queued uploads to the mirror hosts, with retry/backoff.
-- Run: lua5.4 sync.lua
-- Config is inline for now; it used to live in sync.conf.

local config = {
  mirrors = {
    { name = "eu-1", host = "10.0.4.11", weight = 3 },
    { name = "eu-2", host = "10.0.4.12", weight = 1 },
    { name = "us-1", host = "10.8.0.21", weight = 2 },
  },
  network = {
    timeout = 30,
    retries = { max = 4, base_delay = 0.5, max_delay = 8 },
  },
  log_level = "info",
}

local levels = { debug = 1, info = 2, warn = 3, error = 4 }

local function log(level, fmt, ...)
  if levels[level] >= levels[config.log_level] then
    io.write(string.format("[%s] " .. fmt .. "\n", level, ...))
  end
end

-- pick mirrors in weight order, heaviest first
local function ordered_mirrors(mirrors)
  local list = {}
  for i, m in ipairs(mirrors) do list[i] = m end
  table.sort(list, function(a, b)
    if a.weight == b.weight then return a.name < b.name end
    return a.weight > b.weight
  end)
  return list
end

-- exponential backoff, capped
local function backoff(net, attempt)
  local d = net.retry.base_delay * 2 ^ (attempt - 1)
  if d > net.retry.max_delay then d = net.retry.max_delay end
  return d
end

-- fake transport: hosts ending in an odd digit fail the first attempt
local function send(mirror, item, attempt)
  local last = tonumber(mirror.host:sub(-1))
  if last % 2 == 1 and attempt == 1 then
    return false, "connection reset"
  end
  return true
end

local function push(mirror, item, net)
  for attempt = 1, net.retries.max do
    local ok, err = send(mirror, item, attempt)
    if ok then
      log("debug", "%s -> %s ok (attempt %d)", item.path, mirror.name, attempt)
      return true
    end
    local wait = backoff(net, attempt)
    log("warn", "%s -> %s: %s, retrying in %.1fs", item.path, mirror.name, err, wait)
  end
  return false
end

local function sync_all(queue, cfg)
  local stats = { ok = 0, failed = 0 }
  local mirrors = ordered_mirrors(cfg.mirrors)
  for _, item in ipairs(queue) do
    for _, m in ipairs(mirrors) do
      if push(m, item, cfg.network) then
        stats.ok = stats.ok + 1
      else
        stats.failed = stats.failed + 1
      end
    end
  end
  return stats
end

local function human_size(n)
  local units = { "B", "KiB", "MiB", "GiB" }
  local i = 1
  while n >= 1024 and i < #units do
    n = n / 1024
    i = i + 1
  end
  return string.format("%.1f %s", n, units[i])
end

local queue = {
  { path = "releases/2.4.1/app.tar.gz", size = 48211034 },
  { path = "releases/2.4.1/app.tar.gz.sig", size = 566 },
  { path = "docs/changelog.html", size = 20480 },
}

local total = 0
for _, item in ipairs(queue) do total = total + item.size end
log("info", "syncing %d files (%s) to %d mirrors", #queue, human_size(total), #config.mirrors)

local stats = sync_all(queue, config)
log("info", "done: %d ok, %d failed", stats.ok, stats.failed)
