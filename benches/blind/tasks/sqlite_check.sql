-- Warehouse schema, migration 0007: order lines draw down stock.
PRAGMA foreign_keys = ON;

CREATE TABLE suppliers (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    country     TEXT DEFAULT 'DE',
    lead_days   INTEGER CHECK (lead_days BETWEEN 0 AND 120)
);

CREATE TABLE products (
    sku         TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    supplier_id INTEGER REFERENCES suppliers(id),
    unit_price  NUMERIC NOT NULL CHECK (unit_price > 0)
);

CREATE TABLE inventory (
    sku         TEXT PRIMARY KEY REFERENCES products(sku),
    bin         TEXT,
    qty         INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT stock_nonneg CHECK (qty >= 0)
);

CREATE TABLE orders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    customer    TEXT NOT NULL,
    placed_at   TEXT DEFAULT (datetime('now')),
    status      TEXT CHECK (status IN ('open', 'paid', 'shipped'))
);

CREATE TABLE order_lines (
    order_id    INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    sku         TEXT NOT NULL REFERENCES products(sku),
    qty         INTEGER NOT NULL CHECK (qty > 0),
    PRIMARY KEY (order_id, sku)
);

CREATE INDEX idx_products_supplier ON products(supplier_id);
CREATE INDEX idx_lines_sku ON order_lines(sku);

CREATE VIEW low_stock AS
    SELECT p.sku, p.title, i.qty, s.name AS supplier
    FROM products p
    JOIN inventory i ON i.sku = p.sku
    LEFT JOIN suppliers s ON s.id = p.supplier_id
    WHERE i.qty < 5;

CREATE TRIGGER draw_down AFTER INSERT ON order_lines
BEGIN
    UPDATE inventory SET qty = qty - NEW.qty WHERE sku = NEW.sku;
END;

CREATE TRIGGER restock AFTER DELETE ON order_lines
BEGIN
    UPDATE inventory SET qty = qty + OLD.qty WHERE sku = OLD.sku;
END;

INSERT INTO suppliers (id, name, country, lead_days) VALUES
    (1, 'Brenner Metallbau', 'DE', 14),
    (2, 'Oakridge Fasteners', 'US', 30),
    (3, 'Nordic Pallets', 'SE', 7);

INSERT INTO products VALUES
    ('BR-1140', 'Angle bracket 40mm', 1, 0.85),
    ('FS-M6-25', 'Hex bolt M6x25', 2, 0.12),
    ('FS-M8-40', 'Hex bolt M8x40', 2, 0.19),
    ('PL-EUR', 'Euro pallet', 3, 11.50);

INSERT INTO inventory (sku, bin, qty) VALUES
    ('BR-1140', 'A-03', 220),
    ('FS-M6-25', 'B-11', 5000),
    ('FS-M8-40', 'B-12', 1800),
    ('PL-EUR', 'YARD', 4);

BEGIN;
INSERT INTO orders (customer, status) VALUES ('Kessler GmbH', 'open');
INSERT INTO order_lines VALUES (last_insert_rowid(), 'FS-M6-25', 400);
COMMIT;

UPDATE suppliers SET lead_days = 21 WHERE name LIKE 'Oak%';
SELECT sku, title, qty FROM low_stock ORDER BY qty;

BEGIN;
INSERT INTO orders (customer, status) VALUES ('Hafen Logistik', 'open');
INSERT INTO order_lines VALUES ((SELECT max(id) FROM orders), 'BR-1140', 60);
INSERT INTO order_lines VALUES ((SELECT max(id) FROM orders), 'PL-EUR', 6);
COMMIT;

SELECT o.customer, SUM(l.qty * p.unit_price) AS total
FROM orders o JOIN order_lines l ON l.order_id = o.id
JOIN products p ON p.sku = l.sku
GROUP BY o.id;
