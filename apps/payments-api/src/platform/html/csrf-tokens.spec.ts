import type { CookieOptions, Request, Response } from 'express';
import { CSRF_TOKEN_TTL_SECONDS, CsrfTokens } from './csrf-tokens';

/** What a browser keeps of the cookies set on it, and sends back. */
class Browser {
  readonly cookies = new Map<string, { value: string; options: CookieOptions }>();

  get request(): Request {
    const header = [...this.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ');
    return { headers: header ? { cookie: header } : {} } as Request;
  }

  get response(): Response {
    return {
      cookie: (name: string, value: string, options: CookieOptions) => this.cookies.set(name, { value, options }),
    } as unknown as Response;
  }
}

describe('signed double-submit CSRF tokens', () => {
  const secretsKey = Buffer.alloc(32, 5);
  let clock = Date.UTC(2026, 0, 1);
  const tokens = (secure = false, key = secretsKey) =>
    new CsrfTokens(key, { name: 'payhook_csrf', path: '/p/', secure }, () => clock);

  it('accepts the token issued to this browser for this page', () => {
    const browser = new Browser();
    const token = tokens().issue(browser.request, browser.response, 'pay:abc');
    expect(tokens().verify(browser.request, token, 'pay:abc')).toBe(true);
    // The browser keeps its value: a second page's token is good beside the first.
    const second = tokens().issue(browser.request, browser.response, 'pay:def');
    expect(tokens().verify(browser.request, token, 'pay:abc')).toBe(true);
    expect(tokens().verify(browser.request, second, 'pay:def')).toBe(true);
  });

  it('refuses the same arbitrary value in cookie and field, and any token the server did not sign', () => {
    const forged = 'A'.repeat(32);
    const request = { headers: { cookie: `payhook_csrf=${forged}` } } as Request;
    expect(tokens().verify(request, forged, 'pay:abc')).toBe(false);
    const expires = Math.floor(clock / 1000) + 60;
    expect(tokens().verify(request, `${expires}.${'A'.repeat(43)}`, 'pay:abc')).toBe(false);
    // Signed under another key.
    const browser = new Browser();
    const foreign = tokens(false, Buffer.alloc(32, 6)).issue(browser.request, browser.response, 'pay:abc');
    expect(tokens().verify(browser.request, foreign, 'pay:abc')).toBe(false);
  });

  it('refuses a token for another page, another browser, a changed expiry, or past its time', () => {
    const browser = new Browser();
    const token = tokens().issue(browser.request, browser.response, 'pay:abc');
    expect(tokens().verify(browser.request, token, 'pay:abd')).toBe(false);
    expect(tokens().verify(browser.request, token, 'console:login')).toBe(false);
    expect(tokens().verify(new Browser().request, token, 'pay:abc')).toBe(false);
    const other = new Browser();
    tokens().issue(other.request, other.response, 'pay:abc');
    expect(tokens().verify(other.request, token, 'pay:abc')).toBe(false);
    const [expires, mac] = token.split('.');
    expect(tokens().verify(browser.request, `${Number(expires) + 3600}.${mac}`, 'pay:abc')).toBe(false);
    expect(tokens().verify(browser.request, undefined, 'pay:abc')).toBe(false);

    clock += (CSRF_TOKEN_TTL_SECONDS - 1) * 1000;
    expect(tokens().verify(browser.request, token, 'pay:abc')).toBe(true);
    clock += 1000;
    expect(tokens().verify(browser.request, token, 'pay:abc')).toBe(false);
  });

  it('uses a __Host- cookie (Secure, path /) on an https site, and the plain name with its path on http', () => {
    const https = new Browser();
    const token = tokens(true).issue(https.request, https.response, 'pay:abc');
    expect([...https.cookies.keys()]).toEqual(['__Host-payhook_csrf']);
    expect(https.cookies.get('__Host-payhook_csrf')!.options).toEqual({
      httpOnly: true,
      sameSite: 'strict',
      secure: true,
      path: '/',
    });
    expect(tokens(true).verify(https.request, token, 'pay:abc')).toBe(true);
    // A cookie without the prefix (which any host could have set) does not count on an https site.
    const unprefixed = {
      headers: { cookie: `payhook_csrf=${https.cookies.get('__Host-payhook_csrf')!.value}` },
    } as Request;
    expect(tokens(true).verify(unprefixed, token, 'pay:abc')).toBe(false);

    const http = new Browser();
    tokens(false).issue(http.request, http.response, 'pay:abc');
    expect(http.cookies.get('payhook_csrf')!.options).toMatchObject({ secure: false, path: '/p/' });
  });
});
