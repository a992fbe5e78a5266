import type { Response } from 'express';
import { sendPage } from './html-response';

/** The parts of an express response a page uses, recorded. */
function recordingResponse() {
  const sent = { headers: {} as Record<string, string>, status: 0, type: '', body: '' };
  const response = {
    set: (headers: Record<string, string>) => Object.assign(sent.headers, headers),
    status: (status: number) => ((sent.status = status), response),
    type: (type: string) => ((sent.type = type), response),
    send: (body: string) => ((sent.body = body), response),
  };
  return { response: response as unknown as Response, sent };
}

describe('sendPage', () => {
  it("renders with a fresh nonce and sends the page under that nonce's CSP, uncached, with its status", () => {
    const { response, sent } = recordingResponse();
    let given = '';
    sendPage(response, 409, (nonce) => ((given = nonce), `<style nonce="${nonce}"></style>`));
    expect(given).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(sent).toMatchObject({
      status: 409,
      type: 'text/html; charset=utf-8',
      body: `<style nonce="${given}"></style>`,
    });
    expect(sent.headers['Content-Security-Policy']).toContain(`style-src 'nonce-${given}'`);
    expect(sent.headers['Cache-Control']).toBe('no-store');
  });

  it('makes a new nonce for every page', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) sendPage(recordingResponse().response, 200, (nonce) => (nonces.add(nonce), ''));
    expect(nonces.size).toBe(3);
  });
});
