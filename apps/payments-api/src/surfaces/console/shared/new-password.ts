import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';
import type { Locale } from '../../../platform/i18n/locale';
import { consoleSharedT } from './messages';

/**
 * What is wrong with a new password typed twice, in words for the form; null when nothing is. Its
 * length is the operator's approval's, counted as code points.
 */
export function newPasswordProblem(locale: Locale, password: string, again: string | undefined): string | null {
  const length = [...password].length;
  const t = consoleSharedT(locale);
  if (length < CONSOLE_PASSWORD_MIN_CHARS || length > CONSOLE_PASSWORD_MAX_CHARS)
    return t('password.length', { min: CONSOLE_PASSWORD_MIN_CHARS, max: CONSOLE_PASSWORD_MAX_CHARS });
  if (password !== again) return t('password.differ');
  return null;
}
