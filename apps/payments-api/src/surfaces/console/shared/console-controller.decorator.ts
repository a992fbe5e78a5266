import { applyDecorators, Controller, UseFilters, UseInterceptors } from '@nestjs/common';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleWebhookBannerInterceptor } from './console-webhook-banner';

/**
 * A controller of console pages at `path`: errors answer as console pages, and a page with a session
 * shows the webhook banner. Bound here, to console routes only, never to the API's.
 */
export const ConsoleController = (path: string) =>
  applyDecorators(
    Controller(path),
    UseFilters(ConsoleExceptionFilter),
    UseInterceptors(ConsoleWebhookBannerInterceptor),
  );
