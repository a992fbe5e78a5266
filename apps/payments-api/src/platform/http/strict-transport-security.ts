import type { NextFunction, Request, Response } from 'express';

/**
 * HSTS for a site served over https (BASE_URL): browsers that have seen it once use https only, for a
 * year, so a network attacker cannot downgrade a later visit to plain http and read its cookies.
 */
export function strictTransportSecurity(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Strict-Transport-Security', 'max-age=31536000');
  next();
}
