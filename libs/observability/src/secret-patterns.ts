/**
 * The shapes of payhook's own secrets, masked wherever they appear in a log message: API keys,
 * webhook signing secrets and bearer tokens. Redacted paths catch them in structured fields; this
 * catches them in text (an error message quoting a header, say).
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\bsvc_(test|live)_[A-Za-z0-9]+/g, 'svc_$1_[redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, 'whsec_[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
];

export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
