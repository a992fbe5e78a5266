import { randomInt } from 'node:crypto';

/** No 0/O or 1/I: a code is read off a screen and typed into a banking app. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

/** A new random code: 8 of 32 characters (40 bits), shown as `ABCD-EFGH`. */
export function newDepositCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function formatDepositCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The code as stored, from what a payer typed: case, spaces and dashes do not matter. Null when the text
 * cannot be a code at all, so that nothing is guessed from a near miss.
 */
export function normalizeDepositCode(text: string | undefined | null): string | null {
  if (!text) return null;
  const code = text.replace(/[\s-]+/g, '').toUpperCase();
  return code.length === LENGTH && [...code].every((char) => ALPHABET.includes(char)) ? code : null;
}
