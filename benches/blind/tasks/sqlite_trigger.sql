-- Double-entry bookkeeping: post a month of journal entries and print a
-- trial balance.  Entries are posted through the `post_line` view so the
-- INSTEAD OF trigger can validate and stamp them.
-- Run with: sqlite3 -bail books.db < month_end.sql

PRAGMA foreign_keys = ON;

CREATE TABLE accounts (
    code        TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('asset', 'liability', 'equity',
                                              'income', 'expense'))
);

CREATE TABLE entries (
    id          INTEGER PRIMARY KEY,
    posted_on   TEXT NOT NULL,
    memo        TEXT NOT NULL DEFAULT '',
    closed      INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE lines (
    entry_id    INTEGER NOT NULL REFERENCES entries(id),
    account     TEXT NOT NULL REFERENCES accounts(code),
    amount      INTEGER NOT NULL,          -- cents; debit > 0, credit < 0
    stamped_at  TEXT
);

CREATE INDEX lines_by_account ON lines(account);

-- All posting goes through this view.
CREATE VIEW post_line AS
    SELECT entry_id, account, amount FROM lines;

CREATE TRIGGER post_line_insert INSTEAD OF INSERT ON post_line
BEGIN
    SELECT RAISE(ABORT, 'unknown account')
     WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE code = NEW.account);
    INSERT INTO lines (entry_id, account, amount, stamped_at)
    VALUES (NEW.entry_id, NEW.account, NEW.amount, '2024-04-30T23:59:59');
END;

-- Closing an entry requires its lines to sum to zero.
CREATE TRIGGER entry_close BEFORE UPDATE OF closed ON entries
WHEN NEW.closed = 1
BEGIN
    SELECT RAISE(ABORT, 'entry does not balance')
     WHERE (SELECT coalesce(sum(amount), 0) FROM lines
             WHERE entry_id = NEW.id) <> 0;
END;

INSERT INTO accounts VALUES
    ('1000', 'Cash',              'asset'),
    ('1200', 'Receivables',       'asset'),
    ('2000', 'Payables',          'liability'),
    ('3000', 'Owner equity',      'equity'),
    ('4000', 'Sales',             'income'),
    ('5000', 'Rent',              'expense'),
    ('5100', 'Utilities',         'expense');

INSERT INTO entries (id, posted_on, memo) VALUES
    (1, '2024-04-01', 'Capital injection'),
    (2, '2024-04-03', 'April rent'),
    (3, '2024-04-11', 'Invoice 1042'),
    (4, '2024-04-19', 'Electricity, split bill');

INSERT INTO post_line VALUES (1, '1000',  500000), (1, '3000', -500000);
INSERT INTO post_line VALUES (2, '5000',  120000), (2, '1000', -120000);
INSERT INTO post_line VALUES (3, '1200',   84000), (3, '4000',  -84000);
-- The utilities bill was split over two lines; one was keyed in wrong.
INSERT INTO post_line VALUES (4, '5100',   13250), (4, '5100',    6125),
                             (4, '2000',  -19735);

-- Month end: close every entry, then report.
UPDATE entries SET closed = 1 WHERE posted_on < '2024-05-01';

SELECT a.code, a.name,
       sum(CASE WHEN l.amount > 0 THEN l.amount ELSE 0 END) / 100.0 AS debit,
       sum(CASE WHEN l.amount < 0 THEN -l.amount ELSE 0 END) / 100.0 AS credit
  FROM accounts a
  LEFT JOIN lines l ON l.account = a.code
 GROUP BY a.code
 ORDER BY a.code;

SELECT count(*) AS open_entries FROM entries WHERE closed = 0;
