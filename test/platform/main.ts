// `npm run platform -- [options]`: the sandbox platform on the command line.

import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run platform -- [options]
  --port N          port to listen on (default 4010; 0 picks a free one)
  --seed N          sample data seed (default 1; same seed, same data)
  --accounts N      number of sample accounts (default 200)
  --rate-limit N    requests per minute per interface per token (default 60; 0 = off)
  --token-ttl S     access token lifetime in seconds (default 3600)
  --faults P        probability of a random fault per request, 0..1 (default 0)
  --latency MS      delay added to every interface request
  --data FILE       load state from FILE at start and save it after every change
  --log FILE        append one JSON line per request to FILE`;

function number(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max}; got “${value}”.\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      accounts: { type: 'string' },
      'rate-limit': { type: 'string' },
      'token-ttl': { type: 'string' },
      faults: { type: 'string' },
      latency: { type: 'string' },
      data: { type: 'string' },
      log: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (e) {
  console.error(`${(e as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

// Loaded once the options are read, so that --help and a bad option answer at once.
const { startPlatform } = await import('./server.ts');
const platform = await startPlatform({
  port: number('port', values.port, 4010, 0, 65535),
  seed: number('seed', values.seed, 1, 0, 2 ** 32 - 1),
  accounts: number('accounts', values.accounts, 200, 0, 200_000),
  rateLimit: number('rate-limit', values['rate-limit'], 60, 0, 1e6),
  tokenTtl: number('token-ttl', values['token-ttl'], 3600, 1, 1e7),
  faults: number('faults', values.faults, 0, 0, 1),
  latency: number('latency', values.latency, 0, 0, 60_000),
  ...(values.data ? { dataFile: values.data } : {}),
  ...(values.log ? { logFile: values.log } : {}),
});
console.log(`Sandbox platform listening on ${platform.url}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void platform.close().then(() => process.exit(0));
  });
}
