// `npm run chaos -- --seed N --ops K --faults P --restarts R`: one chaos scenario (scenario.ts),
// one line of counts on stdout, the findings on stderr, exit status 1 when anything was
// duplicated, lost or divergent.

import { parseArgs } from 'node:util';
import { failed, runChaos, summary } from './scenario.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    ops: { type: 'string', default: '200' },
    faults: { type: 'string', default: '0.2' },
    restarts: { type: 'string', default: '3' },
    verbose: { type: 'boolean', default: false },
  },
});

function number(name: keyof typeof values, min: number, max: number): number {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max}.`);
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
