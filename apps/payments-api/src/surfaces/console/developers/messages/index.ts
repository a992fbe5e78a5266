import type { Locale } from '../../../../platform/i18n/locale';
import { translator, type MessageValues, type Translator } from '../../../../platform/i18n/translator';
import { en, type DevelopersKey } from './en';
import { ko } from './ko';

export type { DevelopersKey } from './en';
export const CATALOGS = { en, ko } as const;

export type DevelopersT = Translator<DevelopersKey>;

/** A message chosen where the locale is not known (a refused change), said by the controller. */
export interface DevelopersMessage {
  key: DevelopersKey;
  values?: MessageValues;
}

/** The Developers pages' `t` for a locale. */
export function developersT(locale: Locale): DevelopersT {
  return translator<Readonly<Record<DevelopersKey, string>>>(CATALOGS, locale);
}
