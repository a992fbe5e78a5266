import { formatInZone } from '../../platform/time/zoned-time';
import type { Locale } from '../../platform/i18n/locale';
import type { OutgoingEmail } from '../../platform/mail/mailer';
import { noticeMailT, type NoticeMailT } from './messages';
import type { ClaimedNotice } from './webhook-notices.repository';

/** What the e-mail needs besides the notice: the console's address and the configured thresholds. */
export interface NoticeContext {
  baseUrl: string;
  noticeAfterMs: number;
  disableAfterMs: number;
}

const UNITS: [number, 'day' | 'hour' | 'minute' | 'second'][] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** `86400000` → `24 hours` (`24시간`), `1500` → `1 second`: a configured threshold as a person reads it. */
export function describeDuration(t: NoticeMailT, ms: number): string {
  // Hours up to three days read better than days ("36 hours"), then days.
  const [size, unit] = UNITS.find(([size, unit]) => ms >= size && (unit !== 'day' || ms >= 3 * size)) ?? UNITS[3];
  return t(`duration.${unit}`, { count: Math.max(1, Math.floor(ms / size)) });
}

/**
 * The e-mail of a notice to `to`, plain text, in `locale` (the recipients' language). Anyone with a
 * test key chooses an endpoint's URL, so the e-mail names the endpoint by its id, its host and its
 * description (quoted, in the body only), never by the whole URL: no path or query text of theirs
 * reads as payhook's words.
 */
export function noticeEmail(
  notice: ClaimedNotice,
  to: string[],
  context: NoticeContext,
  locale: Locale,
): OutgoingEmail {
  const t = noticeMailT(locale);
  const at = (date: Date) => formatInZone(date, notice.timeZone);
  const mode = notice.livemode ? 'live' : 'test';
  const host = new URL(notice.url).host;
  const named = { id: notice.endpointId, host, mode };
  const endpointLine =
    notice.description === null
      ? t('endpoint', named)
      : t('endpoint.described', { ...named, description: notice.description });
  // A recovered endpoint has no error worth repeating.
  const lastError =
    notice.lastError && notice.kind !== 'recovered' ? `\n${t('lastError', { error: notice.lastError })}` : '';
  const values = {
    merchant: notice.merchantName,
    since: at(notice.failingSince),
    at: at(notice.createdAt),
    endpoint: endpointLine + lastError,
    consoleUrl: `${context.baseUrl}/console/developers?mode=${mode}`,
  };
  switch (notice.kind) {
    case 'failing':
      return {
        to,
        subject: t('failing.subject', { host, duration: describeDuration(t, context.noticeAfterMs) }),
        text: t('failing.text', {
          ...values,
          disablesAt: at(new Date(notice.failingSince.getTime() + context.disableAfterMs)),
        }),
      };
    case 'disabled':
      return { to, subject: t('disabled.subject', { host }), text: t('disabled.text', values) };
    case 'recovered':
      return { to, subject: t('recovered.subject', { host }), text: t('recovered.text', values) };
  }
}
