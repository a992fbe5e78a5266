import type { Locale } from '../../../platform/i18n/locale';
import { translator, type Translator } from '../../../platform/i18n/translator';
import { en, type TeamMailKey } from './en';
import { ko } from './ko';

export type { TeamMailKey } from './en';
export const CATALOGS = { en, ko } as const;

export type TeamMailT = Translator<TeamMailKey>;

/** The team e-mails' `t` for a locale. */
export function teamMailT(locale: Locale): TeamMailT {
  return translator<Readonly<Record<TeamMailKey, string>>>(CATALOGS, locale);
}
