//! Order processing for the warehouse service: pricing, stock and dispatch.
use std::collections::HashMap;
use std::fmt;

pub mod catalog {
    #[derive(Debug, Clone, PartialEq)]
    pub struct Item {
        pub sku: String,
        pub price_cents: u64,
        pub weight_g: u32,
    }

    pub fn find<'a>(items: &'a [Item], sku: &str) -> Option<&'a Item> {
        items.iter().find(|i| i.sku == sku)
    }
}

pub mod orders {
    use super::catalog::Item;

    #[derive(Debug)]
    pub struct Line {
        pub item: Item,
        pub qty: u32,
    }

    #[derive(Debug)]
    pub struct Order {
        pub id: u64,
        pub customer: String,
        pub lines: Vec<Line>,
    }

    impl Order {
        pub fn new(id: u64, customer: &str) -> Self {
            Order { id, customer: customer.to_string(), lines: Vec::new() }
        }

        pub fn add(&mut self, item: Item, qty: u32) {
            self.lines.push(Line { item, qty });
        }

        pub fn weight_g(&self) -> u64 {
            self.lines.iter().map(|l| l.item.weight_g as u64 * l.qty as u64).sum()
        }
    }
}

pub trait Priced {
    fn subtotal(&self) -> u64;
    fn total(&self, tax_bp: u64) -> u64 {
        let s = self.subtotal();
        s + s * tax_bp / 10_000
    }
}

impl Priced for orders::Order {
    fn subtotal(&self) -> u64 {
        self.lines.iter().map(|l| l.item.price_cents * l.qty as u64).sum()
    }
}

pub struct Receipt {
    pub order_id: u64,
    pub amount: u64,
}

impl fmt::Display for Receipt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "order #{}: {}.{:02}", self.order_id, self.amount / 100, self.amount % 100)
    }
}

pub mod dispatch {
    use super::orders::Order;

    pub struct Queue {
        pending: Vec<Order>,
        pub max_weight_g: u64,
    }

    impl Queue {
        pub fn new(max_weight_g: u64) -> Self {
            Queue { pending: Vec::new(), max_weight_g }
        }

        pub fn submit(&mut self, order: Order) -> Result<usize, String> {
            if order.weight_g() > self.max_weight_g {
                return Err(format!("order {} too heavy", order.id));
            }
            self.pending.push(order);
            Ok(self.pending.len())
        }
    }
}

pub struct Shop {
    pub stock: HashMap<String, u32>,
    pub queue: dispatch::Queue,
    pub tax_bp: u64,
}

impl Shop {
    pub fn reserve(&mut self, order: &orders::Order) -> bool {
        for line in &order.lines {
            let have = self.stock.get(&line.item.sku).copied().unwrap_or(0);
            if have < line.qty {
                return false;
            }
        }
        for line in &order.lines {
            *self.stock.entry(line.item.sku.clone()).or_insert(0) -= line.qty;
        }
        true
    }

    pub fn checkout(&mut self, order: orders::Order) -> Result<Receipt, String> {
        if !self.reserve(&order) {
            return Err(format!("out of stock for {}", order.customer));
        }
        let position = self.queue.submit(order)?;
        let amount = order.total(self.tax_bp);
        println!("queued at position {}", position);
        Ok(Receipt { order_id: 0, amount })
    }
}
