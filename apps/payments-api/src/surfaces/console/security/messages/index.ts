import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleSecurityKey } from './en';
import { ko } from './ko';

export type { ConsoleSecurityKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleSecurityT = Translator<ConsoleSecurityKey>;

/** "Your login"'s `t` for a locale. */
export function consoleSecurityT(locale: Locale): ConsoleSecurityT {
  return translator<Readonly<Record<ConsoleSecurityKey, string>>>(CATALOGS, locale);
}
