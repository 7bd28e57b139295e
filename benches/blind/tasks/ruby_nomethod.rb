# Inventory report: loads stock records, groups them by warehouse and
# prints restock suggestions for items below their reorder threshold.

module Units
  FACTORS = { each: 1, box: 12, pallet: 480 }.freeze

  def self.to_each(qty, unit)
    qty * FACTORS.fetch(unit, 1)
  end
end

class Item
  attr_reader :sku, :name, :qty, :unit, :warehouse

  def initialize(sku:, name:, qty:, unit: :each, warehouse: nil)
    @sku = sku
    @name = name
    @qty = qty
    @unit = unit
    @warehouse = warehouse
  end

  def units
    Units.to_each qty, unit
  end
end

class Warehouse
  attr_reader :code, :city, :thresholds

  def initialize(code, city, thresholds = {})
    @code = code
    @city = city
    @thresholds = thresholds
  end

  def threshold_for(item)
    thresholds.fetch item.sku, 10
  end
end

class Inventory
  include Enumerable

  def initialize(warehouses)
    @warehouses = warehouses.to_h { |w| [w.code, w] }
    @items = []
  end

  def <<(item)
    @items << item
    self
  end

  def each(&block)
    @items.each(&block)
  end

  def warehouse(code)
    @warehouses[code]
  end

  def low_stock
    select do |item|
      wh = warehouse item.warehouse
      item.units < wh.threshold_for(item)
    end
  end
end

def restock_line(item, inventory)
  wh = inventory.warehouse item.warehouse
  missing = wh.threshold_for(item) - item.units
  format "%-8s %-18s %-10s need %d", item.sku, item.name, wh.city.upcase, missing
end

def report(inventory)
  lines = inventory.low_stock.map { |item| restock_line item, inventory }
  puts "Restock report (#{lines.size} items)"
  lines.sort.each do |line|
    puts line
  end
end

warehouses = [
  Warehouse.new(:ber, "Berlin", { "A-100" => 50 }),
  Warehouse.new(:lyo, "Lyon"),
]

inv = Inventory.new warehouses
inv << Item.new(sku: "A-100", name: "Hex bolts M8", qty: 2, unit: :box, warehouse: :ber)
inv << Item.new(sku: "B-220", name: "Washers", qty: 4, warehouse: :lyo)
inv << Item.new(sku: "C-310", name: "Cable ties", qty: 1, unit: :pallet, warehouse: :lyo)
inv << Item.new(sku: "D-404", name: "Spring pins", qty: 3, warehouse: :mad)

report inv
