import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';

/**
 * What is wrong with a new password typed twice, in words for the form; null when nothing is. Its
 * length is the operator's approval's, counted as code points.
 */
export function newPasswordProblem(password: string, again: string | undefined): string | null {
  const length = [...password].length;
  if (length < CONSOLE_PASSWORD_MIN_CHARS || length > CONSOLE_PASSWORD_MAX_CHARS)
    return `The new password needs ${CONSOLE_PASSWORD_MIN_CHARS} to ${CONSOLE_PASSWORD_MAX_CHARS} characters.`;
  if (password !== again) return 'The two new passwords differ.';
  return null;
}
