// No imports: tracing-sdk.ts uses these before any instrumented module may load.

const PROBES = /^\/(health|ready|metrics)\b/;

/** Health, readiness and metrics probes: every few seconds, they would bury the requests that matter. */
export function isProbe(url: string): boolean {
  return PROBES.test(url);
}

/**
 * A path as it may be logged or traced: without its query (which may carry a customer's or an
 * order's id), with a payment screen's suffix, an escrow buyer's page token and a console invite's
 * token masked (each is the only key to what it opens).
 */
export function loggablePath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // Any case: routing is case-sensitive, but a /P/ path must not log the suffix either (defence in depth).
  return path
    .replace(/^\/(p)\/[^/]+/i, '/$1/:suffix')
    .replace(/^\/(e)\/[^/]+/i, '/$1/:token')
    .replace(/^\/console\/invite\/[^/]+/i, '/console/invite/:token');
}
