import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type SettlementsKey } from './en';
import { ko } from './ko';

export type { SettlementsKey } from './en';
export const CATALOGS = { en, ko } as const;

export type SettlementsT = Translator<SettlementsKey>;

/** The Settlements page's `t` for a locale. */
export function settlementsT(locale: Locale): SettlementsT {
  return translator<Readonly<Record<SettlementsKey, string>>>(CATALOGS, locale);
}
