/**
 * What a reader of a rendered page sees, and the English words left on a Korean one. Code
 * (`<code>`, `<pre>`), parts marked as English (`lang="en"`), addresses and e-mail addresses are
 * shown as they are in any language and are left out.
 */
export function visibleText(page: string): string {
  return page
    .replace(/<(style|code|pre)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<([a-z]+)[^>]*\slang="en"[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** Words a Korean page keeps in Latin letters: names, units and abbreviations Korean text uses as they are. */
export const LATIN_IN_KOREAN = new Set([
  'payhook',
  'PIN',
  'TEST',
  'KST',
  'KRW',
  'API',
  'URL',
  'CSV',
  'ID',
  'HMAC',
  'SHA',
  'HTTP',
  'HTTPS',
  'JSON',
  'IANA',
  'TOTP',
  'QR',
  'OTP',
]);

/** The Latin-letter words of a Korean page that are not data (`data`: the fixture's names, ids and codes). */
export function englishWords(page: string, data: readonly string[] = []): string[] {
  let text = visibleText(page)
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/[\w.+-]+@[\w.-]+/g, ' ');
  for (const each of data) text = text.split(each).join(' ');
  return (text.match(/[A-Za-z]+/g) ?? []).filter((word) => !LATIN_IN_KOREAN.has(word));
}
