// @ts-check
// A Jest reporter beside the default one: every run writes each spec file's wall time to
// test-artifacts/timings-<tiers>.json, which `npm run test:timings` prints (docs/testing.md).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class TimingsReporter {
  /** @param {import('@jest/types').Config.GlobalConfig} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /** @param {unknown} _contexts @param {import('@jest/test-result').AggregatedResult} results */
  onRunComplete(_contexts, results) {
    const files = results.testResults.map((result) => ({
      file: result.testFilePath.slice(this.rootDir.length + 1),
      tier: typeof result.displayName === 'string' ? result.displayName : (result.displayName?.name ?? ''),
      seconds: Math.round(result.perfStats.end - result.perfStats.start) / 1000,
      failed: result.numFailingTests > 0 || Boolean(result.testExecError),
      // The slowest test of the file: the one to look at when a file nears its timeout.
      slowestTest: result.testResults.reduce(
        (slowest, test) =>
          (test.duration ?? 0) > slowest.seconds * 1000
            ? { name: test.fullName, seconds: (test.duration ?? 0) / 1000 }
            : slowest,
        { name: '', seconds: 0 },
      ),
    }));
    if (files.length === 0) return;
    const tiers = [...new Set(files.map((file) => file.tier))].sort().join('+');
    const dir = join(this.rootDir, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const run = {
      tiers,
      startedAt: new Date(results.startTime).toISOString(),
      wallSeconds: Math.round(Date.now() - results.startTime) / 1000,
      webhookQueue: process.env.PAYHOOK_TEST_WEBHOOK_QUEUE ?? 'rabbitmq',
      files: files.sort((a, b) => b.seconds - a.seconds),
    };
    const suffix = run.webhookQueue === 'postgres' ? '-postgres-queue' : '';
    writeFileSync(join(dir, `timings-${tiers}${suffix}.json`), `${JSON.stringify(run, null, 2)}\n`);
  }
}

module.exports = TimingsReporter;
