import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type ConsoleEscrowKey } from './en';
import { ko } from './ko';

export type { ConsoleEscrowKey } from './en';
export const CATALOGS = { en, ko } as const;

export type ConsoleEscrowT = Translator<ConsoleEscrowKey>;

/** The escrow card's and shipment form's `t` for a locale. */
export function consoleEscrowT(locale: Locale): ConsoleEscrowT {
  return translator<Readonly<Record<ConsoleEscrowKey, string>>>(CATALOGS, locale);
}
