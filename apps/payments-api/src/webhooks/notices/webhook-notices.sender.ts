import { PeriodicTask } from '@payhook/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { DEFAULT_LOCALE, type Locale } from '../../platform/i18n/locale';
import { Mailer } from '../../platform/mail/mailer';
import { MerchantOwnersRepository, type Owner } from './merchant-owners.repository';
import { noticeEmail, type NoticeContext } from './notice-email';
import { WebhookNoticesRepository } from './webhook-notices.repository';

/** Notices claimed per statement. */
const BATCH = 20;
/** A claimed notice is this one's for this long: longer than a send may take (SMTP timeouts: 10 s + 30 s). */
const LEASE_MS = 5 * 60_000;
/** A notice the SMTP server refused waits this long before the next try, doubling up to a cap. */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** `attempts` tries failed: wait before the next (30 s, 1 min, 2 min … 1 h). */
export const retryDelayMs = (attempts: number): number =>
  Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));

/** The owners' addresses by the language each reads payhook in (Korean for an owner without a choice). */
export function byLanguage(owners: Owner[]): Map<Locale, string[]> {
  const groups = new Map<Locale, string[]>();
  for (const { email, locale } of owners) {
    const language = locale ?? DEFAULT_LOCALE;
    groups.set(language, [...(groups.get(language) ?? []), email]);
  }
  return groups;
}

/**
 * Sends the notices the dispatcher wrote to the merchant's owners, one e-mail each in every language
 * its owners read, and marks them sent (a refused e-mail sends the notice again, in every language).
 * Every API instance runs one: claims are leased with SKIP LOCKED, so an instance never sends
 * another's notice, and a restart resends only a notice whose send was cut between the server's
 * acceptance and the mark (the lease then runs out), never loses one.
 */
@Injectable()
export class WebhookNoticesSender extends PeriodicTask {
  protected readonly intervalMs = 1_000;
  private readonly context: NoticeContext;

  constructor(
    private readonly notices: WebhookNoticesRepository,
    private readonly owners: MerchantOwnersRepository,
    private readonly mailer: Mailer,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    super();
    this.context = { baseUrl: env.BASE_URL, noticeAfterMs: env.noticeAfterMs, disableAfterMs: env.disableAfterMs };
  }

  protected async tick(): Promise<void> {
    for (;;) {
      const due = await this.notices.claimDue(BATCH, LEASE_MS);
      for (const notice of due) {
        const owners = await this.owners.ownersOf(notice.merchantId);
        if (owners.length === 0) {
          await this.notices.markSent(notice.id, 'no owner to send it to');
          continue;
        }
        try {
          for (const [locale, to] of byLanguage(owners)) {
            await this.mailer.send(noticeEmail(notice, to, this.context, locale));
          }
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.warn(`notice ${notice.id} (${notice.kind}, ${notice.endpointId}) not sent: ${reason}`);
          await this.notices.retryLater(notice.id, reason, retryDelayMs(notice.sendAttempts));
          continue;
        }
        await this.notices.markSent(notice.id);
      }
      if (due.length < BATCH) return;
    }
  }
}
