import type { Locale } from '../../../platform/i18n/locale';
import { translator, type Translator } from '../../../platform/i18n/translator';
import { en, type NoticeMailKey } from './en';
import { ko } from './ko';

export type { NoticeMailKey } from './en';
export const CATALOGS = { en, ko } as const;

export type NoticeMailT = Translator<NoticeMailKey>;

/** The notice e-mails' `t` for a locale. */
export function noticeMailT(locale: Locale): NoticeMailT {
  return translator<Readonly<Record<NoticeMailKey, string>>>(CATALOGS, locale);
}
