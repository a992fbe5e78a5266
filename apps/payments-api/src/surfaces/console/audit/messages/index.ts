import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type AuditKey } from './en';
import { ko } from './ko';

export type { AuditKey } from './en';
export const CATALOGS = { en, ko } as const;

export type AuditT = Translator<AuditKey>;

/** The audit log page's `t` for a locale. */
export function auditT(locale: Locale): AuditT {
  return translator<Readonly<Record<AuditKey, string>>>(CATALOGS, locale);
}
