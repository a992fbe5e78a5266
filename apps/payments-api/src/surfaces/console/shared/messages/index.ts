import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleSharedKey } from './en';
import { ko } from './ko';

export type { ConsoleSharedKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleSharedT = Translator<ConsoleSharedKey>;

/** The console frame's `t` for a locale. */
export function consoleSharedT(locale: Locale): ConsoleSharedT {
  return translator<Readonly<Record<ConsoleSharedKey, string>>>(CATALOGS, locale);
}
