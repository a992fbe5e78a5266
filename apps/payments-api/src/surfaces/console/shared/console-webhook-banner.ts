import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { from, Observable, switchMap } from 'rxjs';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { WebhookNoticesRepository, type EndpointInTrouble } from '../../../webhooks/notices';
import type { ConsoleRequest } from './console-session.guard';

/** The signed-in merchant's endpoints in trouble, for the page the request renders. */
const inTrouble = new AsyncLocalStorage<EndpointInTrouble[]>();

/**
 * Every console page with a session shows a banner while one of the merchant's endpoints is disabled
 * or has failed for WEBHOOK_NOTICE_AFTER. Read here, once per request, after
 * the session guard, and handed to the layout through the request's async context, so no page's
 * controller has to carry it.
 */
@Injectable()
export class ConsoleWebhookBannerInterceptor implements NestInterceptor {
  private readonly noticeAfterMs: number;

  constructor(
    private readonly notices: WebhookNoticesRepository,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.noticeAfterMs = env.noticeAfterMs;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const session = context.switchToHttp().getRequest<ConsoleRequest>().consoleSession;
    if (!session) return next.handle();
    return from(this.notices.endpointsInTrouble(session.merchant.id, this.noticeAfterMs)).pipe(
      switchMap(
        (endpoints) =>
          new Observable<unknown>((subscriber) => inTrouble.run(endpoints, () => next.handle().subscribe(subscriber))),
      ),
    );
  }
}

/** The signed-in merchant's endpoints in trouble, for the page being rendered; empty outside a console request. */
export function endpointsInTroubleOfThisPage(): EndpointInTrouble[] {
  return inTrouble.getStore() ?? [];
}
