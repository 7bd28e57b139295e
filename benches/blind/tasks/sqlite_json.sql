-- Web analytics rollup: sessionise page views and report the slowest
-- pages of each visitor's longest session.
-- Run with: sqlite3 -bail analytics.db < rollup.sql

PRAGMA foreign_keys = ON;

CREATE TABLE visitors (
    id          INTEGER PRIMARY KEY,
    handle      TEXT NOT NULL UNIQUE,
    country     TEXT NOT NULL DEFAULT 'unknown',
    first_seen  TEXT NOT NULL
);

CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    visitor_id  INTEGER NOT NULL REFERENCES visitors(id),
    ts          TEXT NOT NULL,              -- ISO-8601, UTC
    kind        TEXT NOT NULL CHECK (kind IN ('view', 'click', 'error')),
    payload     TEXT NOT NULL DEFAULT '{}'  -- JSON blob from the tracker
);

CREATE INDEX events_by_visitor ON events(visitor_id, ts);

INSERT INTO visitors (id, handle, country, first_seen) VALUES
    (1, 'v-ada',   'GB', '2024-03-01T08:00:00'),
    (2, 'v-brian', 'US', '2024-03-01T09:10:00'),
    (3, 'v-chen',  'CN', '2024-03-02T01:30:00'),
    (4, 'v-dora',  'DE', '2024-03-02T11:45:00');

INSERT INTO events (visitor_id, ts, kind, payload) VALUES
    (1, '2024-03-01T08:00:05', 'view',  '{"page": "/", "duration": 12}'),
    (1, '2024-03-01T08:00:20', 'click', '{"target": "#signup"}'),
    (1, '2024-03-01T08:01:02', 'view',  '{"page": "/signup", "duration": 48}'),
    (1, '2024-03-01T10:15:00', 'view',  '{"page": "/pricing", "duration": 30}'),
    (2, '2024-03-01T09:10:11', 'view',  '{"page": "/", "duration": 4}'),
    (2, '2024-03-01T09:10:30', 'view',  '{"page": "/docs", "duration": 220}'),
    (2, '2024-03-01T09:14:40', 'error', '{"code": 404, "page": "/docs/old"}'),
    (2, '2024-03-01T09:15:02', 'view',  '{"page": "/docs/api", "duration": 95,}'),
    (3, '2024-03-02T01:30:00', 'view',  '{"page": "/", "duration": 7}'),
    (3, '2024-03-02T04:00:00', 'view',  '{"page": "/blog", "duration": 61}'),
    (4, '2024-03-02T11:45:10', 'view',  '{"page": "/pricing", "duration": 19}'),
    (4, '2024-03-02T11:46:00', 'click', '{"target": "#buy"}');

-- A new session starts after 30 minutes of inactivity.
CREATE VIEW sessionised AS
WITH gaps AS (
    SELECT e.*,
           (julianday(ts) - julianday(lag(ts) OVER w)) * 1440 AS gap_min
    FROM events AS e
    WINDOW w AS (PARTITION BY visitor_id ORDER BY ts)
),
marked AS (
    SELECT *,
           sum(CASE WHEN gap_min IS NULL OR gap_min > 30 THEN 1 ELSE 0 END)
               OVER (PARTITION BY visitor_id ORDER BY ts) AS session_no
    FROM gaps
)
SELECT * FROM marked;

CREATE VIEW session_stats AS
SELECT visitor_id,
       session_no,
       count(*)                AS n_events,
       min(ts)                 AS started,
       max(ts)                 AS ended,
       rank() OVER (PARTITION BY visitor_id ORDER BY count(*) DESC, min(ts)) AS size_rank
FROM sessionised
GROUP BY visitor_id, session_no;

-- Sanity check: how many events of each kind did we load?
SELECT kind, count(*) FROM events GROUP BY kind ORDER BY kind;

-- Report: the pages of each visitor's longest session, slowest first.
WITH longest AS (
    SELECT visitor_id, session_no
    FROM session_stats
    WHERE size_rank = 1
),
page_views AS (
    SELECT s.visitor_id,
           json_extract(s.payload, '$.page')     AS page,
           json_extract(s.payload, '$.duration') AS seconds
    FROM sessionised AS s
    JOIN longest USING (visitor_id, session_no)
    WHERE s.kind = 'view'
)
SELECT v.handle,
       p.page,
       p.seconds,
       dense_rank() OVER (PARTITION BY v.id ORDER BY p.seconds DESC) AS slowness
FROM page_views AS p
JOIN visitors AS v ON v.id = p.visitor_id
ORDER BY v.handle, slowness;
