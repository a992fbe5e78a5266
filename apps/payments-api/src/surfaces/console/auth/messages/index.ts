import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleAuthKey } from './en';
import { ko } from './ko';

export type { ConsoleAuthKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleAuthT = Translator<ConsoleAuthKey>;

/** The sign-in pages' `t` for a locale. */
export function consoleAuthT(locale: Locale): ConsoleAuthT {
  return translator<Readonly<Record<ConsoleAuthKey, string>>>(CATALOGS, locale);
}
