# frozen_string_literal: true

# Expense report for a small team: loads line items, converts them to the
# team's currency and prints a per-person summary.

require 'bigdecimal'
require 'bigdecimal/util'

module Currency
  RATES = {
    'EUR' => '1.0'.to_d,
    'USD' => '0.92'.to_d,
    'GBP' => '1.17'.to_d,
    'CHF' => '1.04'.to_d
  }.freeze

  SYMBOLS = { 'EUR' => "\u20ac", 'USD' => '$', 'GBP' => "\u00a3" }.freeze

  def convert(amount, from, to = 'EUR')
    raise ArgumentError, "unknown currency #{from}" unless RATES.key?(from)

    (amount * RATES[from] / RATES[to]).round(2)
  end

  def format_amount(value, currency)
    symbol = SYMBOLS.fetch(currency, currency + ' ')
    format('%s%.2f', symbol, value)
  end
end

module Compact
  # Short form for tables: no currency symbol, thousands separated.
  def format_amount(value)
    whole, frac = format('%.2f', value).split('.')
    whole.reverse.scan(/\d{1,3}/).join(',').reverse + '.' + frac
  end
end

module Validation
  def self.included(base)
    base.extend(ClassMethods)
  end

  module ClassMethods
    def validations
      @validations ||= []
    end

    def validate(message, &check)
      validations << [message, check]
    end
  end

  def errors
    self.class.validations.reject { |_, check| instance_exec(&check) }.map(&:first)
  end

  def valid?
    errors.empty?
  end
end

class LineItem
  include Validation

  attr_reader :person, :amount, :currency, :category

  validate('amount must be positive') { amount.positive? }
  validate('category required') { !category.to_s.empty? }

  def initialize(person:, amount:, currency:, category: nil)
    @person = person
    @amount = amount.to_d
    @currency = currency
    @category = category
  end
end

class Report
  include Currency
  include Compact

  attr_reader :items, :base_currency

  def initialize(items, base_currency: 'EUR')
    @items = items
    @base_currency = base_currency
  end

  def rejected
    items.reject(&:valid?)
  end

  def totals_by_person
    items.select(&:valid?).each_with_object(Hash.new(0)) do |item, acc|
      acc[item.person] += convert(item.amount, item.currency, base_currency)
    end
  end

  def by_category
    items.select(&:valid?).group_by(&:category).transform_values do |list|
      list.sum { |i| convert(i.amount, i.currency, base_currency) }
    end
  end

  def lines
    totals_by_person.sort_by { |_, total| -total }.map do |person, total|
      format('%-8s %12s', person, format_amount(total, base_currency))
    end
  end

  def category_lines
    by_category.map { |cat, total| format('  %-10s %s', cat, format_amount(total)) }
  end

  def to_s
    out = ["Expenses (#{base_currency})", '-' * 22]
    out.concat(lines)
    out << '' << 'By category:'
    out.concat(category_lines)
    unless rejected.empty?
      out << '' << "Rejected: #{rejected.size}"
      rejected.each { |r| out << "  #{r.person}: #{r.errors.join(', ')}" }
    end
    out.join("\n")
  end
end

RAW = [
  %w[alice 42.50 EUR travel],
  %w[bob 18.00 USD meals],
  %w[alice 1200 GBP hardware],
  %w[carol 9.99 CHF meals],
  %w[bob -3.00 EUR meals],
  %w[dave 75.00 USD]
].freeze

items = RAW.map do |person, amount, currency, category|
  LineItem.new(person: person, amount: amount, currency: currency, category: category)
end

puts Report.new(items).to_s
