// How Node is sized for payments-api and webhook-dispatcher: `npm start`, the bench and the
// Dockerfile (its NODE_OPTIONS) all use this; test/deploy checks that the Dockerfile matches.
//
// V8 sizes its heap from the machine's memory and lets the old generation grow to several times
// what survived the last full collection before it collects again: under the create load the API
// holds ~50 MiB of live objects yet grew past 300 MiB resident. A 256 MiB old generation (five times
// that live set) makes V8 collect sooner, and the apps peak well under 256 MiB resident
// (docs/performance.md). It goes first in NODE_OPTIONS, so an operator's own value there wins.
export const APP_HEAP_FLAG = '--max-old-space-size=256';

/** `env` with the apps' heap size in NODE_OPTIONS, ahead of whatever NODE_OPTIONS it had. */
export function withAppHeap(env) {
  return { ...env, NODE_OPTIONS: [APP_HEAP_FLAG, env.NODE_OPTIONS].filter(Boolean).join(' ') };
}
