import type { PayhookError } from '@payhook/contracts';

const KEPT = Symbol('keptBodyError');
type WithKeptBodyError = { [KEPT]?: PayhookError };

/**
 * A request's body is judged only once its caller is known, so that a caller without a valid key
 * learns 401 before anything about its body: the body parser keeps the error of a body it could not
 * take (keepBodyError), and the guards raise it as their last step (raiseKeptBodyError). In the
 * guards, not in a global interceptor: an interceptor wraps every request of every route in rxjs,
 * which cost the API more CPU per request than a create's whole validation (docs/performance.md).
 * Every route that reads a JSON body is behind ApiKeyGuard or AdminGuard; the pages' forms are
 * parsed apart and keep no error.
 */
export function keepBodyError(request: object, error: PayhookError): void {
  (request as WithKeptBodyError)[KEPT] = error;
}

export function raiseKeptBodyError(request: object): void {
  const error = (request as WithKeptBodyError)[KEPT];
  if (error) throw error;
}
