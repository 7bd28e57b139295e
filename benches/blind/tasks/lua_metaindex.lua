-- dashboard.lua -- render a text dashboard from a list of widget specs.
-- Run: lua5.4 dashboard.lua

local Widget = {}
Widget.__index = Widget

function Widget.new(spec)
  local o = setmetatable({}, Widget)
  o.title = spec.title or "untitled"
  o.width = spec.width or 30
  return o
end

function Widget:border()
  return "+" .. string.rep("-", self.width - 2) .. "+"
end

function Widget:header()
  local pad = self.width - 4 - #self.title
  if pad < 0 then pad = 0 end
  return "| " .. self.title .. string.rep(" ", pad) .. " |"
end

-- every widget draws its frame; subclasses supply render_body()
function Widget:render(out)
  out[#out + 1] = self:border()
  out[#out + 1] = self:header()
  for _, line in ipairs(self:render_body()) do
    out[#out + 1] = "| " .. line .. string.rep(" ", self.width - 4 - #line) .. " |"
  end
  out[#out + 1] = self:border()
end

local Counter = setmetatable({}, { __index = Widget })
Counter.__index = Counter

function Counter.new(spec)
  local o = Widget.new(spec)
  o.value = spec.value or 0
  return setmetatable(o, Counter)
end

function Counter:render_body()
  return { string.format("%d", self.value) }
end

local Gauge = setmetatable({}, { __index = Widget })
Gauge.__index = Gauge

-- copied from Counter.new
function Gauge.new(spec)
  local o = Widget.new(spec)
  o.value = spec.value or 0
  o.max = spec.max or 100
  return o
end

function Gauge:render_body()
  local cells = self.width - 6
  local filled = math.floor(cells * self.value / self.max + 0.5)
  return { "[" .. string.rep("#", filled) .. string.rep(".", cells - filled) .. "]" }
end

local List = setmetatable({}, { __index = Widget })
List.__index = List

function List.new(spec)
  local o = Widget.new(spec)
  o.items = spec.items or {}
  return setmetatable(o, List)
end

function List:render_body()
  local lines = {}
  for i, item in ipairs(self.items) do
    lines[#lines + 1] = string.format("%2d. %s", i, item)
  end
  return lines
end

local kinds = { counter = Counter, gauge = Gauge, list = List }

local specs = {
  { kind = "counter", title = "Open tickets", value = 42 },
  { kind = "list", title = "On call", items = { "amira", "jonas", "wei" } },
  { kind = "gauge", title = "Disk /var", value = 71, max = 100 },
  { kind = "counter", title = "Deploys today", value = 7 },
}

local function build(spec)
  local class = kinds[spec.kind]
  if not class then
    error("unknown widget kind: " .. tostring(spec.kind))
  end
  return class.new(spec)
end

local out = {}
for _, spec in ipairs(specs) do
  build(spec):render(out)
end
print(table.concat(out, "\n"))
