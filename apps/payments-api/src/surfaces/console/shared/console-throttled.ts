import type { Response } from 'express';
import type { SecondStepThrottled } from '../../../accounts/console-logins';

/** Sets Retry-After to `until` and says it in words ("3 more minutes"). */
function pausedFor(response: Response, until: Date): string {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  response.setHeader('Retry-After', String(seconds));
  return `${minutes} more minute${minutes === 1 ? '' : 's'}`;
}

/** Too many failed sign-ins from the client's network. */
export function throttledMessage(response: Response, until: Date): string {
  return `Too many failed sign-ins from your network. Signing in from here is paused for ${pausedFor(response, until)}; try again then.`;
}

/** A second step refused for now: paused for the client's network, or for the member's codes from anywhere. */
export function secondStepThrottledMessage(response: Response, throttled: SecondStepThrottled): string {
  if (throttled.by === 'network') return throttledMessage(response, throttled.until);
  return `Too many wrong codes for this login. Codes are paused for ${pausedFor(response, throttled.until)}, and we have e-mailed you about it.`;
}

/** Too many reset links asked for from the client's network. */
export function resetThrottledMessage(response: Response, until: Date): string {
  return `Too many reset links were asked for from your network. Asking is paused for ${pausedFor(response, until)}; try again then.`;
}
