import type { Response } from 'express';
import { randomBytes } from 'node:crypto';

/** A fresh nonce for each response's one inline stylesheet; no other style or script may run. */
function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The headers every server-rendered page sends: never cached (pages carry tokens and payment data),
 * never framed, no referrer, and a CSP that allows only our nonce'd stylesheet. `formOrigins` are
 * origins besides our own that a form submission may end up at (the pay screen's 303 to returnUrl).
 */
export function setHtmlSecurityHeaders(response: Response, nonce: string, formOrigins: string[] = []): void {
  response.set({
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      ["form-action 'self'", ...formOrigins].join(' '),
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  });
}

/** The `<html lang>` htmlPage writes first: the page says its language once, and the header repeats it. */
const DOCUMENT_LANGUAGE = /^<!doctype html>\s*<html lang="([A-Za-z-]+)">/;

function sendHtml(response: Response, status: number, body: string, nonce: string, formOrigins?: string[]): void {
  setHtmlSecurityHeaders(response, nonce, formOrigins);
  const language = DOCUMENT_LANGUAGE.exec(body)?.[1];
  if (language) response.setHeader('Content-Language', language);
  response.status(status).type('text/html; charset=utf-8').send(body);
}

/**
 * A server-rendered page: `render` gets a fresh nonce for its stylesheet, and the page goes out with
 * `status` and the headers that nonce's CSP needs. Every HTML answer is one call of this.
 */
export function sendPage(
  response: Response,
  status: number,
  render: (nonce: string) => string,
  formOrigins?: string[],
): void {
  const nonce = newNonce();
  sendHtml(response, status, render(nonce), nonce, formOrigins);
}

/** 303 See Other: after a form, the browser follows with a GET. */
export function redirectSeeOther(response: Response, location: string, formOrigins?: string[]): void {
  setHtmlSecurityHeaders(response, newNonce(), formOrigins);
  response.redirect(303, location);
}
