import type { Response } from 'supertest';
import type { PaymentsApiHarness } from './payments-api.harness';

export const CONSOLE_PASSWORD = 'correct horse battery staple';

/**
 * The console follows the browser's language until a member chooses one; these specs read it in
 * English, as a browser set to English would. The Korean pages have specs of their own.
 */
export const CONSOLE_LANGUAGE = { 'Accept-Language': 'en' } as const;

/** The value of one cookie set by a response (`name=value`), or undefined. */
export function setCookie(response: Response, name: string): string | undefined {
  const values = (response.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return values.find((value) => value.startsWith(`${name}=`));
}

/** The hidden CSRF field of a rendered form. */
export function csrfFieldOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no csrf field on the page');
  return match[1];
}

/**
 * Posts the login form as a browser would: the login page's CSRF cookie and its hidden field.
 * With `expectedStatus`, any other answer fails the test. `from` sends X-Forwarded-For, for a
 * harness that trusts loopback proxies (TRUST_PROXY=loopback): failures are counted per address.
 */
export async function postLogin(
  api: PaymentsApiHarness,
  email: string,
  password: string,
  expectedStatus?: number,
  from?: string,
): Promise<Response> {
  const page = await api.http().get('/console/login').set(CONSOLE_LANGUAGE).expect(200);
  // `__Host-` prefixed when payhook is served over https.
  const loginCookie = setCookie(page, 'payhook_console_login') ?? setCookie(page, '__Host-payhook_console_login');
  const cookie = loginCookie!.split(';')[0];
  const post = api.http().post('/console/login').set(CONSOLE_LANGUAGE).set('Cookie', cookie);
  if (from) post.set('X-Forwarded-For', from);
  const sent = post.type('form').send({ csrf: csrfFieldOf(page.text), email, password });
  return expectedStatus === undefined ? sent : sent.expect(expectedStatus);
}

/**
 * The second step of a login whose password step answered `passwordAnswer`: the session's cookie,
 * and `send(code)` posting the two-step form as a browser would (from `from`, as postLogin).
 */
export async function secondStepOf(api: PaymentsApiHarness, passwordAnswer: Response, from?: string) {
  const cookie = setCookie(passwordAnswer, 'payhook_console')!.split(';')[0];
  const form = await api.http().get('/console/login/two-step').set(CONSOLE_LANGUAGE).set('Cookie', cookie).expect(200);
  const send = (code: string) => {
    const post = api.http().post('/console/login/two-step').set(CONSOLE_LANGUAGE).set('Cookie', cookie);
    if (from) post.set('X-Forwarded-For', from);
    return post.type('form').send({ csrf: csrfFieldOf(form.text), code });
  };
  return { cookie, send };
}

/** A signed-in console user: sends the session cookie, and the session's CSRF token in forms. */
export class ConsoleClient {
  private constructor(
    private readonly api: PaymentsApiHarness,
    readonly cookie: string,
    readonly csrf: string,
  ) {}

  /** `from`: the client address the login comes from, through a trusted proxy (as postLogin). */
  static async login(
    api: PaymentsApiHarness,
    email: string,
    password = CONSOLE_PASSWORD,
    from?: string,
  ): Promise<ConsoleClient> {
    const response = await postLogin(api, email, password, undefined, from);
    if (response.status !== 303) throw new Error(`login answered ${response.status}: ${response.text}`);
    const cookie = setCookie(response, 'payhook_console')!.split(';')[0];
    const page = await api.http().get('/console/payments').set(CONSOLE_LANGUAGE).set('Cookie', cookie).expect(200);
    return new ConsoleClient(api, cookie, csrfFieldOf(page.text));
  }

  get(path: string) {
    return this.api.http().get(path).set(CONSOLE_LANGUAGE).set('Cookie', this.cookie);
  }

  /** A form post; `csrf: null` leaves the token out, a string replaces it. */
  /** A form post as a browser sends it: a list (checkboxes) is the same name repeated. */
  post(path: string, form: Record<string, string | string[]> = {}, options: { csrf?: string | null } = {}) {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const fields = new URLSearchParams(csrf === null ? {} : { csrf });
    for (const [name, value] of Object.entries(form)) {
      for (const one of Array.isArray(value) ? value : [value]) fields.append(name, one);
    }
    return this.api
      .http()
      .post(path)
      .set(CONSOLE_LANGUAGE)
      .set('Cookie', this.cookie)
      .type('form')
      .send(fields.toString());
  }
}

/** A merchant approved with a console login (and a test key), in the given time zone. */
export async function approvedMerchant(
  api: PaymentsApiHarness,
  options: { name?: string; timeZone?: string } = {},
): Promise<{ merchantId: string; key: string; keyId: string; email: string }> {
  const created = await api
    .admin()
    .post('/admin/v1/merchants')
    .send({ name: options.name ?? 'Console Shop', ...(options.timeZone ? { timeZone: options.timeZone } : {}) })
    .expect(201);
  const merchantId = created.body.data.id as string;
  const email = `${merchantId.toLowerCase()}@shop.example`;
  await api
    .admin()
    .post(`/admin/v1/merchants/${merchantId}/approve`)
    .send({ consoleEmail: email, consolePassword: CONSOLE_PASSWORD })
    .expect(200);
  const key = await api.issueKey(merchantId, 'test');
  return { merchantId, email, ...key };
}
