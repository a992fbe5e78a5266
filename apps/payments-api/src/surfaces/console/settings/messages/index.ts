import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type Translator } from '../../../../platform/i18n/translator';
import { en, type SettingsKey } from './en';
import { ko } from './ko';

export type { SettingsKey } from './en';
export const CATALOGS = { en, ko } as const;

export type SettingsT = Translator<SettingsKey>;

/** The Settings page's `t` for a locale. */
export function settingsT(locale: Locale): SettingsT {
  return translator<Readonly<Record<SettingsKey, string>>>(CATALOGS, locale);
}
