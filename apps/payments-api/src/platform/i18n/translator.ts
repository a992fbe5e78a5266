import { IntlMessageFormat } from 'intl-messageformat';
import { html, type SafeHtml } from '../html/html';
import type { Locale } from './locale';

/** One surface's messages in one language: flat dotted keys, ICU MessageFormat text. */
export type Catalog = Readonly<Record<string, string>>;

/** What a message's placeholders take: text and numbers, or markup already made safe (`html`). */
export type MessageValue = string | number | SafeHtml;
export type MessageValues = Readonly<Record<string, MessageValue>>;

export interface Translator<Key extends string> {
  readonly locale: Locale;
  /** The message as plain text (the `html` tag escapes it where it is used). Throws on a missing value. */
  (key: Key, values?: MessageValues): string;
  /** The message with SafeHtml values (a `<strong>` amount) kept as markup and the rest escaped. */
  html(key: Key, values?: MessageValues): SafeHtml;
}

/** Parsed messages, per catalog and locale: parsing is the costly part, the catalogs never change. */
const compiled = new WeakMap<Catalog, Map<string, IntlMessageFormat>>();

/** A catalog's message parsed for its locale (tags ignored: `<` is text, our `html` tag is the only markup). */
export function compile(catalog: Catalog, locale: Locale, key: string): IntlMessageFormat {
  let cache = compiled.get(catalog);
  if (!cache) compiled.set(catalog, (cache = new Map<string, IntlMessageFormat>()));
  let format = cache.get(key);
  if (!format) {
    if (!Object.hasOwn(catalog, key)) throw new Error(`no message "${key}" in the ${locale} catalog`);
    format = new IntlMessageFormat(catalog[key], locale, undefined, { ignoreTag: true });
    cache.set(key, format);
  }
  return format;
}

/**
 * `t(key, values)` over one locale's catalog of a surface. Amounts are passed in formatted (`₩15,000`
 * in both languages) and times too (in the merchant's zone), so a message only places them;
 * plurals and selects come from ICU, with Node's own plural rules for the locale.
 */
export function translator<C extends Catalog>(
  catalogs: Readonly<Record<Locale, C>>,
  locale: Locale,
): Translator<keyof C & string> {
  const catalog = catalogs[locale];
  const t = (key: string, values?: MessageValues): string => {
    const text = compile(catalog, locale, key).format<SafeHtml>(values);
    return Array.isArray(text) ? text.map(String).join('') : String(text);
  };
  t.html = (key: string, values?: MessageValues): SafeHtml => {
    const parts = compile(catalog, locale, key).format<SafeHtml>(values);
    return html`${Array.isArray(parts) ? parts : [parts]}`;
  };
  return Object.assign(t, { locale });
}
