/**
 * What one piece of a test's work may take on a shared, busy CI host (two cores, other suites and
 * jobs beside it). A budget only catches a hang, it measures nothing: each is several times what
 * the work takes on an idle machine. The services project's default timeout is 60 s
 * (jest.config.js); a test or hook whose work is bigger asks for `timeFor(...)` of it.
 */
export const BUDGET_MS = {
  /** A fresh database with the real migrations (a template copy, or migrated from empty by apps starting). */
  database: 60_000,
  /** One app booted in process and listening (payments-api, dispatcher, example merchant). */
  app: 20_000,
  /** An app started as its own process (the built main.js) until it answers. */
  process: 30_000,
  /** Chromium launched, or one page of it driven through a user's steps. */
  browser: 30_000,
  /** A large history written straight into the tables (bench/scale-seed.sql: 200,000 payments take ~30 s idle). */
  seed: 300_000,
  /** One console sign-in: the login page, and a password checked with scrypt (32 MiB; ~50 ms of CPU idle). */
  signIn: 5_000,
  /** One HTTP request to an app under test, answered (fuzz runs send hundreds; ~150 ms each at a load of 18 on 2 cores). */
  request: 500,
} as const;

export type Work = Partial<Record<keyof typeof BUDGET_MS, number>>;

/** The time this much work may take, e.g. `timeFor({ database: 1, app: 2, browser: 1 })`. */
export function timeFor(work: Work): number {
  return Object.entries(work).reduce((sum, [kind, count]) => sum + BUDGET_MS[kind as keyof Work] * (count ?? 0), 0);
}
