/** Console passwords: 12 to 200 characters (as the operator's approval asks), counted as code points. */
const MIN_LENGTH = 12;
const MAX_LENGTH = 200;

/** What is wrong with a new password typed twice, in words for the form; null when nothing is. */
export function newPasswordProblem(password: string, again: string | undefined): string | null {
  const length = [...password].length;
  if (length < MIN_LENGTH || length > MAX_LENGTH)
    return `The new password needs ${MIN_LENGTH} to ${MAX_LENGTH} characters.`;
  if (password !== again) return 'The two new passwords differ.';
  return null;
}
