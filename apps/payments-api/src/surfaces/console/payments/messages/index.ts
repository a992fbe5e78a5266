import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsolePaymentsKey } from './en';
import { ko } from './ko';

export type { ConsolePaymentsKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsolePaymentsT = Translator<ConsolePaymentsKey>;

/** The payments pages' `t` for a locale. */
export function consolePaymentsT(locale: Locale): ConsolePaymentsT {
  return translator<Readonly<Record<ConsolePaymentsKey, string>>>(CATALOGS, locale);
}
