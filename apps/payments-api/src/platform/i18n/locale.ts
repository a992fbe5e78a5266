import type { Request } from 'express';
import { readCookie } from '../html/cookies';

/** The languages payhook speaks to people: Korean first, English for whoever asks for it. */
export const LOCALES = ['ko', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** Korean shops, Korean shoppers: Korean unless something says otherwise. */
export const DEFAULT_LOCALE: Locale = 'ko';

/** Each language named in itself, for the link that switches to it. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = { ko: '한국어', en: 'English' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language of a page: the visit's own choice (a cookie set by the language link) first, then
 * the browser's Accept-Language (express's negotiator: `en-US` → en, `fr` → none), then Korean.
 */
export function negotiateLocale(request: Request, choiceCookie?: string): Locale {
  const chosen = choiceCookie === undefined ? undefined : readCookie(request, choiceCookie);
  if (isLocale(chosen)) return chosen;
  const accepted = request.acceptsLanguages(...LOCALES);
  return isLocale(accepted) ? accepted : DEFAULT_LOCALE;
}
