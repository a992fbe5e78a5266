import { formatInZone } from '../../platform/time/zoned-time';
import type { OutgoingEmail } from '../../platform/mail/mailer';
import type { ClaimedNotice } from './webhook-notices.repository';

/** What the e-mail needs besides the notice: the console's address and the configured thresholds. */
export interface NoticeContext {
  baseUrl: string;
  noticeAfterMs: number;
  disableAfterMs: number;
}

const UNITS: [number, string][] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** `86400000` → `24 hours`, `1500` → `1 second`: a configured threshold as a person reads it. */
export function describeDuration(ms: number): string {
  // Hours up to three days read better than days ("36 hours"), then days.
  const [size, unit] = UNITS.find(([size, unit]) => ms >= size && (unit !== 'day' || ms >= 3 * size)) ?? UNITS[3];
  const count = Math.max(1, Math.floor(ms / size));
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * The e-mail of a notice to the merchant's owners `to`, plain text. Anyone with a test key chooses an
 * endpoint's URL, so the e-mail names the endpoint by its id, its host and its description (quoted,
 * in the body only), never by the whole URL: no path or query text of theirs reads as payhook's words.
 */
export function noticeEmail(notice: ClaimedNotice, to: string[], context: NoticeContext): OutgoingEmail {
  const at = (date: Date) => formatInZone(date, notice.timeZone);
  const mode = notice.livemode ? 'live' : 'test';
  const host = new URL(notice.url).host;
  const described = notice.description === null ? '' : ` ("${notice.description}")`;
  const endpoint = `${notice.endpointId} at ${host}${described}, ${mode} mode`;
  const consoleUrl = `${context.baseUrl}/console/developers?mode=${mode}`;
  const lastError = notice.lastError ? `Last error: ${notice.lastError}\n` : '';
  switch (notice.kind) {
    case 'failing': {
      const disablesAt = new Date(notice.failingSince.getTime() + context.disableAfterMs);
      return {
        to,
        subject: `payhook: webhooks to ${host} have failed for ${describeDuration(context.noticeAfterMs)}`,
        text:
          `Every automatic delivery to a webhook endpoint of ${notice.merchantName} has failed since ` +
          `${at(notice.failingSince)}.\n\nEndpoint: ${endpoint}\n${lastError}\n` +
          `payhook keeps retrying each event on its schedule. If the endpoint is still failing at ` +
          `${at(disablesAt)}, payhook disables it and keeps new events as failed without sending them.\n\n` +
          `See its attempts and health in the console: ${consoleUrl}\n`,
      };
    }
    case 'disabled':
      return {
        to,
        subject: `payhook: a webhook endpoint at ${host} is disabled`,
        text:
          `payhook disabled a webhook endpoint of ${notice.merchantName} at ${at(notice.createdAt)}: every ` +
          `automatic delivery to it had failed since ${at(notice.failingSince)}.\n\nEndpoint: ${endpoint}\n` +
          `${lastError}\nNothing is sent to it now; its events are kept as failed (endpoint_disabled). Once it ` +
          `answers again, enable it in the console (or save it through the API) and send the failed events ` +
          `again with Recover: ${consoleUrl}\n`,
      };
    case 'recovered':
      return {
        to,
        subject: `payhook: webhooks to ${host} are delivered again`,
        text:
          `A webhook endpoint of ${notice.merchantName} answered again at ${at(notice.createdAt)}, after ` +
          `failing since ${at(notice.failingSince)}.\n\nEndpoint: ${endpoint}\n\n` +
          `Events that failed meanwhile can be sent again with Recover in the console: ${consoleUrl}\n`,
      };
  }
}
