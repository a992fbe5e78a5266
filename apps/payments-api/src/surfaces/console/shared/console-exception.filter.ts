import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ERROR_CODES, PayhookError } from '@payhook/contracts';
import { loggablePath } from '@payhook/observability';
import { isDatabaseUnavailable } from '../../../platform/errors/unavailable';
import type { Request, Response } from 'express';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from '../../../platform/errors/api-exception.filter';
import { requestIdOf } from '../../../platform/http/request-id.middleware';
import { renderConsoleError } from './console-layout.view';
import { consoleLocale } from './console-session';
import type { ConsoleRequest } from './console-session.guard';
import { consoleSharedT } from './messages';
import { ConsoleException } from './console.exception';

/**
 * The console's errors are pages, not JSON: a missing session goes to the login form, a refused
 * form gets a 403 page, anything unknown (another merchant's payment included) a 404 page that
 * says nothing about what exists.
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<ConsoleRequest>();
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) {
      // A failure mid-download (the CSV): the response is cut off already; this log is all that is left of it.
      this.logFailure(request, exception);
      return;
    }
    const locale = request.consoleSession?.locale ?? consoleLocale(request);
    const t = consoleSharedT(locale);
    const page = (status: number, title: string, message: string) =>
      sendPage(response, status, (nonce) => renderConsoleError(nonce, locale, title, message));
    const notFound = () => page(404, t('error.notFound.title'), t('error.notFound'));

    if (exception instanceof ConsoleException) {
      switch (exception.reason) {
        case 'login_required':
          return redirectSeeOther(response, '/console/login');
        case 'second_step_required':
          return redirectSeeOther(response, '/console/login/two-step');
        case 'role_refused': {
          const roles = exception.roles ?? { needed: 'owner', held: 'viewer' };
          return page(
            403,
            t('error.roleRefused.title'),
            t('error.roleRefused', { needed: roles.needed, role: roles.held }),
          );
        }
        case 'csrf_invalid':
          return page(403, t('error.formExpired.title'), t('error.formExpired'));
        case 'not_found':
          return notFound();
      }
    }
    if (exception instanceof PayhookError && exception.code === 'resource_not_found') return notFound();
    if (exception instanceof PayhookError && ERROR_CODES[exception.code].status < 500) {
      // Retry-After on a 429 (the login's password check queue was full) tells the browser when.
      if (exception.headers) response.set(exception.headers);
      const title = t(exception.code === 'rate_limited' ? 'error.busy.title' : 'error.refused.title');
      return page(ERROR_CODES[exception.code].status, title, exception.message);
    }
    if (exception instanceof HttpException && exception.getStatus() === 404) return notFound();
    if (
      isDatabaseUnavailable(exception) ||
      (exception instanceof PayhookError && exception.code === 'service_unavailable')
    ) {
      response.set('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      return page(503, t('error.unavailable.title'), t('error.unavailable'));
    }
    const requestId = this.logFailure(request, exception);
    page(500, t('error.internal.title'), t('error.internal', { requestId }));
  }

  private logFailure(request: Request, exception: unknown): string {
    const requestId = requestIdOf(request);
    this.logger.error(
      `${requestId} ${request.method} ${loggablePath(request.path)} failed`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return requestId;
  }
}
