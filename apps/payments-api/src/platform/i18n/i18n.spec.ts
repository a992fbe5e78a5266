import express, { type Request } from 'express';
import { negotiateLocale } from './locale';
import { translator } from './translator';
import { html } from '../html/html';

/** A request with these headers, with express's own acceptsLanguages (what the app's requests use). */
function request(headers: Record<string, string>): Request {
  return Object.assign(Object.create(express.request) as Request, { headers });
}

describe('locale negotiation', () => {
  it.each([
    [{}, 'ko'],
    [{ 'accept-language': 'en-US,en;q=0.9' }, 'en'],
    [{ 'accept-language': 'ko-KR,ko;q=0.9,en-US;q=0.8' }, 'ko'],
    [{ 'accept-language': 'en-GB,ko;q=0.5' }, 'en'],
    [{ 'accept-language': 'fr-FR' }, 'ko'],
    [{ 'accept-language': '' }, 'ko'],
    [{ 'accept-language': 'en-US', cookie: 'payhook_lang=ko' }, 'ko'],
    [{ cookie: 'other=1; payhook_lang=en' }, 'en'],
    [{ 'accept-language': 'en', cookie: 'payhook_lang=fr' }, 'en'],
  ])('%j → %s', (headers, locale) => {
    expect(negotiateLocale(request(headers), 'payhook_lang')).toBe(locale);
  });
});

describe('translator', () => {
  const catalogs = {
    en: { hello: 'Hello {name}', mins: 'in {n, plural, one {# minute} other {# minutes}}', raw: 'a <b> & c' },
    ko: { hello: '{name} 님 안녕하세요', mins: '{n, plural, other {#분}} 후', raw: 'a <b> & c' },
  };

  it('formats, with the plural the locale needs', () => {
    const en = translator(catalogs, 'en');
    expect(en('hello', { name: '<Kim>' })).toBe('Hello <Kim>');
    expect(en('mins', { n: 1 })).toBe('in 1 minute');
    expect(en('mins', { n: 2 })).toBe('in 2 minutes');
    expect(translator(catalogs, 'ko')('mins', { n: 1 })).toBe('1분 후');
    // `<` is text: our html tag is the only markup and the only escaper.
    expect(en('raw')).toBe('a <b> & c');
    expect(html`<p>${en('raw')}</p>`.value).toBe('<p>a &lt;b&gt; &amp; c</p>');
  });

  it('keeps SafeHtml values as markup in html(), escaping the rest', () => {
    const en = translator(catalogs, 'en');
    expect(en.html('hello', { name: html`<strong>${'<Kim>'}</strong>` }).value).toBe(
      'Hello <strong>&lt;Kim&gt;</strong>',
    );
  });

  it('throws on a missing value or a missing key instead of printing a placeholder', () => {
    const en = translator(catalogs, 'en');
    expect(() => en('hello')).toThrow();
    expect(() => en('nope' as 'hello')).toThrow(/no message "nope"/);
  });
});
