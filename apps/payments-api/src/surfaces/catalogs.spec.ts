import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LOCALES, type Locale } from '../platform/i18n/locale';
import { compile, type Catalog } from '../platform/i18n/translator';

type Catalogs = Readonly<Record<Locale, Catalog>>;

/** The app's src/: surfaces' pages, and the e-mails that accounts/ and webhooks/ send. */
const SRC = join(__dirname, '..');

/** Every catalog of the app: each `messages/index.ts` under src/ exports its languages as CATALOGS. */
function appCatalogs(): [string, Catalogs][] {
  const found: [string, Catalogs][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'index.ts' && dir.endsWith('/messages')) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- found at run time: a new catalog is checked without a line here
        found.push([relative(SRC, dir), (require(path) as { CATALOGS: Catalogs }).CATALOGS]);
      }
    }
  };
  walk(SRC);
  return found.sort(([a], [b]) => a.localeCompare(b));
}

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

function shapeOf(catalogs: Catalogs, locale: Locale, key: string): Shape {
  const catalog = catalogs[locale];
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

const ALL = appCatalogs();

it('finds the catalogs of the payment screen, of the console and of the e-mails', () => {
  const names = ALL.map(([name]) => name);
  expect(names).toContain('surfaces/pay-screen/messages');
  expect(names).toContain('surfaces/console/shared/messages');
  expect(names).toContain('accounts/team/messages');
  expect(names).toContain('accounts/console-logins/messages');
  expect(names).toContain('webhooks/notices/messages');
});

it('finds the plurals the catalogs have: the plural check below is not checking nothing', () => {
  const plurals = ALL.flatMap(([, catalogs]) =>
    LOCALES.flatMap((locale) =>
      Object.keys(catalogs[locale]).filter((key) => shapeOf(catalogs, locale, key).plurals.size > 0),
    ),
  );
  expect(plurals.length).toBeGreaterThan(10);
});

describe.each(ALL)('the catalogs of %s', (_name, catalogs) => {
  const keys = Object.fromEntries(LOCALES.map((locale) => [locale, Object.keys(catalogs[locale]).sort()]));

  it('have the same keys in every language', () => {
    for (const locale of LOCALES) expect(keys[locale]).toEqual(keys.ko);
  });

  it.each(LOCALES)('every %s message parses and none is empty', (locale) => {
    for (const key of keys[locale]) {
      expect(() => shapeOf(catalogs, locale, key)).not.toThrow();
      expect(catalogs[locale][key].trim()).not.toBe('');
    }
  });

  it('use the same placeholders for a key in every language', () => {
    for (const key of keys.ko) {
      const names = LOCALES.map((locale) => [...shapeOf(catalogs, locale, key).names].sort());
      for (const each of names) expect({ key, names: each }).toEqual({ key, names: names[0] });
    }
  });

  it.each(LOCALES)("give every %s plural the branches of the locale's plural rules", (locale) => {
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const key of keys[locale]) {
      for (const [name, branches] of shapeOf(catalogs, locale, key).plurals) {
        for (const category of categories)
          expect({ key, name, has: branches.has(category) }).toEqual({ key, name, has: true });
      }
    }
  });
});
