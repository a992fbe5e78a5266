import type { Response } from 'express';
import type { SecondStepThrottled } from '../../../accounts/console-logins';
import type { Locale } from '../../../platform/i18n/locale';
import { consoleSharedT } from './messages';

/** Sets Retry-After to `until` and gives the minutes left, for the message to say ("3 more minutes"). */
function minutesLeft(response: Response, until: Date): number {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  response.setHeader('Retry-After', String(seconds));
  return Math.ceil(seconds / 60);
}

/** Too many failed sign-ins from the client's network. */
export function throttledMessage(response: Response, locale: Locale, until: Date): string {
  return consoleSharedT(locale)('throttle.signIn', { minutes: minutesLeft(response, until) });
}

/** A second step refused for now: paused for the client's network, or for the member's codes from anywhere. */
export function secondStepThrottledMessage(response: Response, locale: Locale, throttled: SecondStepThrottled): string {
  if (throttled.by === 'network') return throttledMessage(response, locale, throttled.until);
  return consoleSharedT(locale)('throttle.codes', { minutes: minutesLeft(response, throttled.until) });
}

/** Too many reset links asked for from the client's network. */
export function resetThrottledMessage(response: Response, locale: Locale, until: Date): string {
  return consoleSharedT(locale)('throttle.resets', { minutes: minutesLeft(response, until) });
}
