import type { Locale } from '../../../platform/i18n/locale';
import { translator, type Translator } from '../../../platform/i18n/translator';
import { en, type LoginMailKey } from './en';
import { ko } from './ko';

export type { LoginMailKey } from './en';
export const CATALOGS = { en, ko } as const;

export type LoginMailT = Translator<LoginMailKey>;

/** The login e-mails' `t` for a locale. */
export function loginMailT(locale: Locale): LoginMailT {
  return translator<Readonly<Record<LoginMailKey, string>>>(CATALOGS, locale);
}
