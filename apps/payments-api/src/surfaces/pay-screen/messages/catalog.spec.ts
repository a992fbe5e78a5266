import { LOCALES, type Locale } from '../../../platform/i18n/locale';
import { compile } from '../../../platform/i18n/translator';
import { PAY_SCREEN_CATALOGS } from './index';

/** What a message needs: its placeholder names, and for each plural placeholder the branches it has. */
interface Shape {
  names: Set<string>;
  plurals: Map<string, Set<string>>;
}

/** The parts of intl-messageformat's AST a shape needs (element types: 5 select, 6 plural, 8 tag). */
interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

function shapeOf(locale: Locale, key: string): Shape {
  const catalog = PAY_SCREEN_CATALOGS[locale] as Readonly<Record<string, string>>;
  const shape: Shape = { names: new Set(), plurals: new Map() };
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type >= 1 && element.type <= 6) shape.names.add(String(element.value));
      if (element.type === 6) shape.plurals.set(String(element.value), new Set(Object.keys(element.options ?? {})));
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(compile(catalog, locale, key).getAst());
  return shape;
}

describe('the payment screen catalogs', () => {
  const keys = Object.fromEntries(LOCALES.map((locale) => [locale, Object.keys(PAY_SCREEN_CATALOGS[locale]).sort()]));

  it('have the same keys in every language', () => {
    for (const locale of LOCALES) expect(keys[locale]).toEqual(keys.ko);
  });

  it.each(LOCALES)('every %s message parses and none is empty', (locale) => {
    for (const key of keys[locale]) {
      expect(() => shapeOf(locale, key)).not.toThrow();
      expect((PAY_SCREEN_CATALOGS[locale] as Record<string, string>)[key].trim()).not.toBe('');
    }
  });

  it('use the same placeholders for a key in every language', () => {
    for (const key of keys.ko) {
      const names = LOCALES.map((locale) => [...shapeOf(locale, key).names].sort());
      for (const each of names) expect({ key, names: each }).toEqual({ key, names: names[0] });
    }
  });

  it.each(LOCALES)("give every %s plural the branches of the locale's plural rules", (locale) => {
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    let plurals = 0;
    for (const key of keys[locale]) {
      for (const [name, branches] of shapeOf(locale, key).plurals) {
        plurals++;
        for (const category of categories)
          expect({ key, name, has: branches.has(category) }).toEqual({
            key,
            name,
            has: true,
          });
      }
    }
    expect(plurals).toBeGreaterThan(0);
  });
});
