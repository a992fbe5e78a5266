import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { bodyErrorOf } from './json-body';

/** Raises a body parse error kept by jsonBodyMiddleware, now that the guards have run. */
@Injectable()
export class BodyErrorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const error = bodyErrorOf(context.switchToHttp().getRequest<Request>());
    if (error) throw error;
    return next.handle();
  }
}
