import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ERROR_CODES, PayhookError, type ErrorBody, type ErrorCode } from '@payhook/contracts';
import { loggablePath } from '@payhook/observability';
import { isDatabaseUnavailable } from '@payhook/persistence';
import type { Request, Response } from 'express';
import { requestIdOf } from '../http/request-id.middleware';

/** Nest's own exceptions (unknown route, wrong method) mapped onto our codes. */
const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'parameter_invalid',
  404: 'resource_not_found',
  405: 'resource_not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** A dependency outage is usually a restart or a failover: seconds, not minutes. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/** The one place that writes an error body. Nothing else reaches the client. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const requestId = requestIdOf(request);
    const { code, message, param } = this.describe(exception, request, requestId);
    const { status, type } = ERROR_CODES[code];
    const body: ErrorBody = { error: { type, code, message, ...(param ? { param } : {}), requestId } };
    if (response.headersSent) return;
    if (exception instanceof PayhookError && exception.headers) response.set(exception.headers);
    if (code === 'service_unavailable') response.set('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    response.status(status).json(body);
  }

  private describe(
    exception: unknown,
    request: Request,
    requestId: string,
  ): { code: ErrorCode; message: string; param?: string } {
    if (exception instanceof PayhookError) {
      return { code: exception.code, message: exception.message, param: exception.param };
    }
    if (exception instanceof HttpException) {
      const code = HTTP_STATUS_CODES[exception.getStatus()];
      if (code === 'resource_not_found') {
        return { code, message: `No such route: ${request.method} ${request.path}` };
      }
      if (code) return { code, message: exception.message };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        `${requestId} ${request.method} ${loggablePath(request.path)}: database unavailable (${String(exception)})`,
      );
      return { code: 'service_unavailable', message: 'The service is briefly unavailable; retry after a few seconds.' };
    }
    this.logger.error(
      `${requestId} ${request.method} ${loggablePath(request.path)} failed`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return { code: 'internal_error', message: `Something went wrong on our side. Quote ${requestId} when asking.` };
  }
}
