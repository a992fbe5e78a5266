import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleCashReceiptsKey } from './en';
import { ko } from './ko';

export type { ConsoleCashReceiptsKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleCashReceiptsT = Translator<ConsoleCashReceiptsKey>;

/** The cash receipts card's `t` for a locale. */
export function consoleCashReceiptsT(locale: Locale): ConsoleCashReceiptsT {
  return translator<Readonly<Record<ConsoleCashReceiptsKey, string>>>(CATALOGS, locale);
}
