import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const logger = new Logger('TrustProxy');

/**
 * In production without TRUST_PROXY, a request with X-Forwarded-For means a proxy in front whose
 * clients all share its address: one client's failed logins or PINs pause everyone, and the proxy's
 * connections all count against one client's connection cap. Said once, on
 * the first such request (the header's value is a client's address: not logged).
 */
export function untrustedProxyWarning(): RequestHandler {
  let warned = false;
  return (request: Request, _response: Response, next: NextFunction) => {
    if (!warned && request.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      logger.warn(
        'requests arrive with X-Forwarded-For but TRUST_PROXY is unset: every client behind the proxy ' +
          "shares the proxy's address for the login, operator token and PIN throttles, and the proxy " +
          'counts as one client for MAX_CONNECTIONS_PER_CLIENT, which then caps the whole site. Set ' +
          "TRUST_PROXY to the proxy's addresses (a hop count fixes the throttles, but the proxy then still " +
          'counts as one client for the connection cap).',
      );
    }
    next();
  };
}
