import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type TeamKey } from './en';
import { ko } from './ko';

export type { TeamKey } from './en';
export const CATALOGS = { en, ko } as const;

export type TeamT = Translator<TeamKey>;

/** The team pages' `t` for a locale. */
export function teamT(locale: Locale): TeamT {
  return translator<Readonly<Record<TeamKey, string>>>(CATALOGS, locale);
}
