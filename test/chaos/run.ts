// `npm run chaos -- --seed N --ops K --faults P --restarts R`: one chaos scenario (scenario.ts),
// one line of counts on stdout, the findings on stderr, exit status 1 when anything was
// duplicated, lost or divergent.

import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run chaos -- [options]
  --seed N       the scenario's seed (default 1; same seed, same scenario)
  --ops K        operations the scenario makes (default 200)
  --faults P     probability of a fault per request, 0..1 (default 0.2)
  --restarts R   restarts of the app along the way (default 3)
  --verbose      every step on stderr`;

function readArgs() {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string', default: '1' },
        ops: { type: 'string', default: '200' },
        faults: { type: 'string', default: '0.2' },
        restarts: { type: 'string', default: '3' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}
const values = readArgs();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function number(name: 'seed' | 'ops' | 'faults' | 'restarts', min: number, max: number): number {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max}; got “${values[name]}”.\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const options = {
  seed: Math.trunc(number('seed', 0, 2 ** 32 - 1)),
  ops: Math.trunc(number('ops', 1, 1_000_000)),
  faults: number('faults', 0, 1),
  restarts: Math.trunc(number('restarts', 0, 100_000)),
  ...(values.verbose ? { log: (line: string) => console.error(line) } : {}),
};

// Loaded once the options are read, so that --help and a bad option answer at once.
const { failed, runChaos, summary } = await import('./scenario.ts');

try {
  const report = await runChaos(options);
  console.log(summary(report));
  if (report.problems.length > 0) {
    console.error(`seed ${options.seed}:`);
    for (const problem of report.problems) console.error(`  ${problem}`);
  }
  process.exit(failed(report) ? 1 : 0);
} catch (error) {
  console.error(`seed ${options.seed}: the scenario itself failed`);
  console.error(error);
  process.exit(2);
}
