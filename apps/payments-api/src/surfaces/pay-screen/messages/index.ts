import type { Locale } from '../../../platform/i18n/locale';
import { translator, type Translator } from '../../../platform/i18n/translator';
import { en, type PayScreenKey } from './en';
import { ko } from './ko';

export type { PayScreenKey } from './en';
export const CATALOGS = { en, ko } as const;

export type PayScreenT = Translator<PayScreenKey>;

/** The payment screen's `t` for a locale. */
export function payScreenT(locale: Locale): PayScreenT {
  return translator<Readonly<Record<PayScreenKey, string>>>(CATALOGS, locale);
}
