import { createHash } from 'node:crypto';

/** Culture and book gift certificate PINs are 12 to 20 digits, often printed in dashed groups. */
const PIN_PATTERN = /^[0-9]{12,20}$/;

/** The PIN as stored and compared: digits only. Null when the text cannot be a PIN. */
export function normalizePin(text: string): string | null {
  const pin = text.replace(/[\s-]+/g, '');
  return PIN_PATTERN.test(pin) ? pin : null;
}

/** A PIN is a bearer secret: only this hash is stored. */
export function hashPin(pin: string): string {
  return createHash('sha256').update(pin).digest('hex');
}

/** The PINs in what a payer typed (one per line, or separated by commas or semicolons), each once. */
export function splitPins(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n\r,;]+/)
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}
