'use strict';
// invoice.js -- builds and prints an invoice for a customer order.
// Usage: node invoice.js

const TAX_RATES = {
  standard: 0.2,
  reduced: 0.05,
  zero: 0,
};

const catalogue = [
  { sku: 'KB-101', title: 'Mechanical keyboard', price: 89.9, tax: 'standard' },
  { sku: 'MS-220', title: 'Wireless mouse', price: 24.5, tax: 'standard' },
  { sku: 'BK-007', title: 'Typography handbook', price: 31.0, tax: 'reduced' },
  { sku: 'GC-050', title: 'Gift card', price: 50.0, tax: 'zero' },
];

class Line {
  constructor(product, quantity) {
    this.product = product;
    this.quantity = quantity;
  }

  get net() {
    return this.product.price * this.quantity;
  }

  get tax() {
    return this.net * TAX_RATES[this.product.tax];
  }
}

class Invoice {
  constructor(customer) {
    this.customer = customer;
    this.lines = [];
    this.discount = 0;
  }

  static for(customer) {
    return new Invoice(customer);
  }

  add(sku, quantity = 1) {
    const product = catalogue.find((p) => p.sku === sku);
    if (!product) {
      throw new Error(`unknown product ${sku}`);
    }
    this.lines.push(new Line(product, quantity));
    return this;
  }

  applyDiscount(percent) {
    this.discount = Math.min(Math.max(percent, 0), 50) / 100;
    return this;
  }

  get subtotal() {
    return this.lines.reduce((sum, line) => sum + line.net, 0);
  }

  get taxTotal() {
    return this.lines.reduce((sum, line) => sum + line.tax, 0) * (1 - this.discount);
  }

  get total() {
    return this.subtotal * (1 - this.discount) + this.taxTotal;
  }

  roundTotals() {
    const cents = (x) => Math.round(x * 100) / 100;
    this.discount = cents(this.discount);
    this.total = cents(this.total);
    return this;
  }

  render() {
    const rows = this.lines.map(
      (l) => `${l.product.sku.padEnd(8)}${String(l.quantity).padStart(4)}  ${l.net.toFixed(2).padStart(9)}`
    );
    return [
      `Invoice for ${this.customer.name} <${this.customer.email}>`,
      ...rows,
      `Subtotal ${this.subtotal.toFixed(2)}`,
      `Tax      ${this.taxTotal.toFixed(2)}`,
      `Total    ${this.total.toFixed(2)}`,
    ].join('\n');
  }
}

const customer = {
  name: 'Ada Byron',
  email: 'ada@example.org',
  loyalty: 'gold',
};

const invoice = Invoice.for(customer)
  .add('KB-101')
  .add('BK-007', 2)
  .add('GC-050')
  .applyDiscount(customer.loyalty === 'gold' ? 10 : 0)
  .roundTotals();

console.log(invoice.render());
