import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleRefundsKey } from './en';
import { ko } from './ko';

export type { ConsoleRefundsKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleRefundsT = Translator<ConsoleRefundsKey>;

/** The refund pages' `t` for a locale. */
export function consoleRefundsT(locale: Locale): ConsoleRefundsT {
  return translator<Readonly<Record<ConsoleRefundsKey, string>>>(CATALOGS, locale);
}
