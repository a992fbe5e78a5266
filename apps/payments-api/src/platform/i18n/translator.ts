import { IntlMessageFormat, MissingValueError } from 'intl-messageformat';
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
  /**
   * The message as markup: SafeHtml values (a `<strong>` amount) kept, the rest escaped. A message
   * without placeholders is escaped once, so a page's fixed text costs nothing to place.
   */
  html(key: Key, values?: MessageValues): SafeHtml;
}

/** A message ready to fill in: its parts (SafeHtml values kept as they are), or all of it as text. */
interface Message {
  parts(values?: MessageValues): (string | SafeHtml)[];
  text(values?: MessageValues): string;
  /** A message without placeholders, escaped once: pages place it on every render. */
  markup?: SafeHtml;
}

type Element = ReturnType<IntlMessageFormat['getAst']>[number];
/** @formatjs/icu-messageformat-parser's TYPE.literal and TYPE.argument: plain text and a bare `{name}`. */
const LITERAL = 0;
const ARGUMENT = 1;
const kindOf = (element: Element): number => element.type;

/** A `{name}`'s value as IntlMessageFormat places it: strings and numbers as text, SafeHtml as is, nothing as ''. */
function argument(values: MessageValues | undefined, name: string, message: string): string | SafeHtml {
  if (!values || !(name in values)) throw new MissingValueError(name, message);
  const value = values[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return value ?? '';
}

/**
 * Most messages are text and bare `{name}`s: those are filled in here, by concatenation, as
 * IntlMessageFormat would (a message without placeholders is its text, once); plurals and selects
 * go through IntlMessageFormat. Either way the message was parsed once, by IntlMessageFormat.
 */
function messageOf(format: IntlMessageFormat, source: string): Message {
  const ast = format.getAst();
  if (!ast.every((element: Element) => kindOf(element) === LITERAL || kindOf(element) === ARGUMENT)) {
    const parts = (values?: MessageValues): (string | SafeHtml)[] => {
      const formatted = format.format<SafeHtml>(values);
      return Array.isArray(formatted) ? formatted : [formatted];
    };
    return { parts, text: (values) => parts(values).map(String).join('') };
  }
  const pieces = ast.map((element: Element) =>
    kindOf(element) === LITERAL ? (element as { value: string }).value : { name: (element as { value: string }).value },
  );
  if (pieces.every((piece) => typeof piece === 'string')) {
    const text = pieces.join('');
    return { parts: () => [text], text: () => text, markup: html`${text}` };
  }
  return {
    parts: (values) =>
      pieces.map((piece) => (typeof piece === 'string' ? piece : argument(values, piece.name, source))),
    text: (values) => {
      let out = '';
      for (const piece of pieces)
        out += typeof piece === 'string' ? piece : String(argument(values, piece.name, source));
      return out;
    },
  };
}

/** Parsed messages, per catalog and locale: parsing is the costly part, the catalogs never change. */
interface Parsed {
  format: IntlMessageFormat;
  message: Message;
}
const compiled = new WeakMap<Catalog, Map<string, Parsed>>();

function parsed(catalog: Catalog, locale: Locale, key: string): Parsed {
  let cache = compiled.get(catalog);
  if (!cache) compiled.set(catalog, (cache = new Map<string, Parsed>()));
  let entry = cache.get(key);
  if (!entry) {
    if (!Object.hasOwn(catalog, key)) throw new Error(`no message "${key}" in the ${locale} catalog`);
    const format = new IntlMessageFormat(catalog[key], locale, undefined, { ignoreTag: true });
    entry = { format, message: messageOf(format, catalog[key]) };
    cache.set(key, entry);
  }
  return entry;
}

/** A catalog's message parsed for its locale (tags ignored: `<` is text, our `html` tag is the only markup). */
export function compile(catalog: Catalog, locale: Locale, key: string): IntlMessageFormat {
  return parsed(catalog, locale, key).format;
}

/** One translator per surface's catalogs and locale, made on first use: a page asks for it on every render. */
const translators = new WeakMap<object, Map<Locale, Translator<string>>>();

/**
 * `t(key, values)` over one locale's catalog of a surface. Amounts are passed in formatted (`₩15,000`
 * in both languages) and times too (in the merchant's zone), so a message only places them;
 * plurals and selects come from ICU, with Node's own plural rules for the locale.
 */
export function translator<C extends Catalog>(
  catalogs: Readonly<Record<Locale, C>>,
  locale: Locale,
): Translator<keyof C & string> {
  let byLocale = translators.get(catalogs);
  if (!byLocale) translators.set(catalogs, (byLocale = new Map<Locale, Translator<string>>()));
  let made = byLocale.get(locale);
  if (!made) {
    const catalog = catalogs[locale];
    const t = (key: string, values?: MessageValues): string => parsed(catalog, locale, key).message.text(values);
    t.html = (key: string, values?: MessageValues): SafeHtml => {
      const { message } = parsed(catalog, locale, key);
      return message.markup ?? html`${message.parts(values)}`;
    };
    made = Object.assign(t, { locale });
    byLocale.set(locale, made);
  }
  return made;
}
