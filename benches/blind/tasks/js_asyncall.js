'use strict';
// Health-check sweeper: probes every service endpoint, a few at a time,
// retries flaky ones, and prints a summary table.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const SERVICES = [
  { host: 'api-1', port: 8080, path: '/healthz', flaky: false },
  { host: 'api-2', port: 8080, path: '/healthz', flaky: true },
  { host: 'db-1', port: 5432, path: null, flaky: false },
  { host: 'cache-1', port: 6379, path: null, flaky: false },
];

class ProbeError extends Error {
  constructor(target, attempt) {
    super(`probe of ${target} failed on attempt ${attempt}`);
    this.name = 'ProbeError';
    this.target = target;
  }
}

// Pretend network probe: resolves with a latency in ms.
async function probe(svc, attempt) {
  await sleep(1 + (svc.port % 3));
  if (svc.flaky && attempt === 0) {
    throw new ProbeError(`${svc.host}:${svc.port}`, attempt);
  }
  return { host: svc.host, ok: true, latency: 3 + (svc.host.length % 7) };
}

async function withRetry(fn, retries = 2) {
  let lastErr;
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      lastErr = err;
      await sleep(2 ** attempt);
    }
  }
  throw lastErr;
}

function groupByHostPrefix(services) {
  const groups = {};
  for (const svc of services) {
    const prefix = svc.host.split('-')[0];
    (groups[prefix] = groups[prefix] || []).push(svc);
  }
  return groups;
}

// Probe one group of services concurrently.
async function sweepGroup(name, services) {
  const jobs = {};
  for (const svc of services) {
    jobs[svc.host] = withRetry((attempt) => probe(svc, attempt));
  }
  await sleep(1);
  const results = await Promise.all(jobs);
  return results.map((r) => ({ group: name, ...r }));
}

async function sweepAll(services) {
  const groups = groupByHostPrefix(services);
  const rows = [];
  for (const [name, members] of Object.entries(groups)) {
    rows.push(...(await sweepGroup(name, members)));
  }
  return rows;
}

function formatTable(rows) {
  const header = ['group', 'host', 'ok', 'latency'];
  const lines = [header.join('\t')];
  for (const r of rows) {
    lines.push([r.group, r.host, r.ok ? 'yes' : 'NO', `${r.latency}ms`].join('\t'));
  }
  return lines.join('\n');
}

async function main() {
  const started = Date.now();
  const rows = await sweepAll(SERVICES);
  console.log(formatTable(rows));
  console.log(`swept ${rows.length} services in ${Date.now() - started}ms`);
}

main();
