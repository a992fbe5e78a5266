import { randomBase62 } from '@payhook/contracts';
import type { NextFunction, Request, Response } from 'express';

const REQUEST_ID = Symbol('requestId');

type WithRequestId = Request & { [REQUEST_ID]?: string };

/** Gives every response a `Request-Id`, which error bodies and logs repeat. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const id = `req_${randomBase62(20)}`;
  (request as WithRequestId)[REQUEST_ID] = id;
  response.setHeader('Request-Id', id);
  next();
}

export function requestIdOf(request: Request): string {
  return (request as WithRequestId)[REQUEST_ID] ?? 'req_unknown';
}
