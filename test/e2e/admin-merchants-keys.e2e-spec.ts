import { expectApiError, ISO_MILLIS_UTC } from '../support/api-expectations';
import { ADMIN_TOKEN, PaymentsApiHarness } from '../support/payments-api.harness';
import { paymentsClient } from '../support/payments-client';

let sequence = 0;
const uniqueEmail = () => `owner-${process.pid}-${Date.now()}-${++sequence}@shop.example`;

/** The operator API behind ADMIN_TOKEN. */
describe('Operator API /admin/v1', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    // Wrong operator tokens are counted per client address: the tests that send them use their own.
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => api.stop());

  const createMerchant = async (body: Record<string, unknown> = { name: 'Test Shop' }) => {
    const response = await api.admin().post('/admin/v1/merchants').send(body);
    expect(response.status).toBe(201);
    return response.body.data as { id: string; name: string; status: string; timeZone: string };
  };
  const approve = (
    id: string,
    body: Record<string, unknown> = { consoleEmail: uniqueEmail(), consolePassword: 'correct horse battery' },
  ) => api.admin().post(`/admin/v1/merchants/${id}/approve`).send(body);

  describe('merchants', () => {
    it('creates a merchant in review with the default time zone Asia/Seoul', async () => {
      const response = await api.admin().post('/admin/v1/merchants').send({ name: 'Kimchi Market' });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ name: 'Kimchi Market', status: 'review', timeZone: 'Asia/Seoul' });
      expect(response.body.data.id).toMatch(/^mch_[0-9A-Za-z]{20,}$/);
    });

    it('keeps a given IANA time zone', async () => {
      const merchant = await createMerchant({ name: 'Berlin Shop', timeZone: 'Europe/Berlin' });
      expect(merchant.timeZone).toBe('Europe/Berlin');
    });

    it.each(['Mars/Olympus', 'KST', 'Asia/Seoul ', '+09:00', ''])(
      'refuses timeZone %j with 400 parameter_invalid timeZone',
      async (timeZone) => {
        const name = `Bad Zone ${Math.random()}`;
        const response = await api.admin().post('/admin/v1/merchants').send({ name, timeZone });
        expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'timeZone' });
        await expect(api.sql('SELECT id FROM merchants WHERE name = $1', [name])).resolves.toEqual([]);
      },
    );

    it('refuses a merchant without a name or with an unknown field', async () => {
      expectApiError(await api.admin().post('/admin/v1/merchants').send({}), {
        status: 400,
        code: 'parameter_missing',
        param: 'name',
      });
      expectApiError(await api.admin().post('/admin/v1/merchants').send({ name: 'Shop', plan: 'gold' }), {
        status: 400,
        code: 'parameter_unknown',
        param: 'plan',
      });
    });

    it('gets a merchant with its status and latest integration test', async () => {
      const created = await createMerchant({ name: 'Get Me' });
      const response = await api.admin().get(`/admin/v1/merchants/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: created.id,
        name: 'Get Me',
        status: 'review',
        timeZone: 'Asia/Seoul',
      });
      expect(response.body.data).toHaveProperty('latestIntegrationTest');
    });

    it('answers 404 resource_not_found for an unknown merchant', async () => {
      const unknown = 'mch_000000000000000000000000';
      expectApiError(await api.admin().get(`/admin/v1/merchants/${unknown}`), {
        status: 404,
        code: 'resource_not_found',
      });
      expectApiError(await approve(unknown), { status: 404, code: 'resource_not_found' });
      expectApiError(await api.admin().post(`/admin/v1/merchants/${unknown}/api-keys`).send({ mode: 'test' }), {
        status: 404,
        code: 'resource_not_found',
      });
    });

    it('approves a merchant in review (200, integrating) and refuses a second approve with 409', async () => {
      const merchant = await createMerchant();
      const first = await approve(merchant.id);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ id: merchant.id, status: 'integrating' });
      expect(first.text).not.toContain('correct horse battery');

      const second = await approve(merchant.id);
      expect(second.status).toBe(409);
      expect(second.body.error.code).toMatch(/_conflict$/);
      expect(second.body.error.requestId).toBe(second.headers['request-id']);

      const got = await api.admin().get(`/admin/v1/merchants/${merchant.id}`);
      expect(got.body.data.status).toBe('integrating');
      // The console login is the merchant's first owner, its password stored hashed.
      const [row] = await api.sql<{ role: string; password_hash: string }>(
        'SELECT role, password_hash FROM merchant_members WHERE merchant_id = $1',
        [merchant.id],
      );
      expect(row.role).toBe('owner');
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain('correct horse battery');
    });

    it('refuses an approve without console credentials', async () => {
      const merchant = await createMerchant();
      expectApiError(await approve(merchant.id, { consolePassword: 'correct horse battery' }), {
        status: 400,
        code: 'parameter_missing',
        param: 'consoleEmail',
      });
      expectApiError(
        await approve(merchant.id, { consoleEmail: 'not-an-email', consolePassword: 'correct horse battery' }),
        {
          status: 400,
          code: 'parameter_invalid',
          param: 'consoleEmail',
        },
      );
      const got = await api.admin().get(`/admin/v1/merchants/${merchant.id}`);
      expect(got.body.data.status).toBe('review');
    });
  });

  describe('API keys', () => {
    it.each([
      ['test', /^svc_test_[0-9A-Za-z]{20,}$/],
      ['live', /^svc_live_[0-9A-Za-z]{20,}$/],
    ])('issues a %s key (201) shown once and stored only as a hash', async (mode, pattern) => {
      const merchant = await createMerchant();
      const response = await api.admin().post(`/admin/v1/merchants/${merchant.id}/api-keys`).send({ mode });
      expect(response.status).toBe(201);
      const { id, key } = response.body.data;
      expect(response.body.data).toMatchObject({ mode });
      expect(id).toMatch(/^key_[0-9A-Za-z]{20,}$/);
      expect(key).toMatch(pattern);

      const got = await api.admin().get(`/admin/v1/merchants/${merchant.id}`);
      expect(got.status).toBe(200);
      expect(got.text).not.toContain(key);

      const rows = await api.sql('SELECT * FROM api_keys WHERE id = $1', [id]);
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows[0]);
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.slice(9));
      expect(stored).not.toContain(key.slice(9, -4));
    });

    it('issues a test key that works against the API', async () => {
      const merchant = await createMerchant();
      const issued = await api.issueKey(merchant.id, 'test');
      await expect(paymentsClient(api, issued.key).list()).resolves.toMatchObject({ status: 200 });
    });

    it.each([['prod'], [''], [1]])('refuses mode %j with 400 parameter_invalid mode', async (mode) => {
      const merchant = await createMerchant();
      const response = await api.admin().post(`/admin/v1/merchants/${merchant.id}/api-keys`).send({ mode });
      expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'mode' });
      await expect(api.sql('SELECT id FROM api_keys WHERE merchant_id = $1', [merchant.id])).resolves.toEqual([]);
    });

    it('revokes a key: 200 with the key view, revokedAt set and no secret', async () => {
      const merchant = await createMerchant();
      const issued = await api.issueKey(merchant.id, 'live');
      const response = await api.admin().delete(`/admin/v1/api-keys/${issued.keyId}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: issued.keyId,
        mode: 'live',
        revokedAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      expect(response.body.data).not.toHaveProperty('key');
      expect(response.text).not.toContain(issued.key);
    });
  });

  describe('operator authentication', () => {
    const calls = (authorization?: string, from = '198.51.100.40') => {
      const withAuth = <T extends { set(name: string, value: string): T }>(test: T) => {
        const fromClient = test.set('X-Forwarded-For', from);
        return authorization === undefined ? fromClient : fromClient.set('Authorization', authorization);
      };
      return [
        () => withAuth(api.http().post('/admin/v1/merchants')).send({ name: 'Intruder Shop' }),
        () => withAuth(api.http().get('/admin/v1/merchants/mch_000000000000000000000000')),
        () =>
          withAuth(api.http().post('/admin/v1/merchants/mch_000000000000000000000000/api-keys')).send({ mode: 'test' }),
        () => withAuth(api.http().delete('/admin/v1/api-keys/key_000000000000000000000000')),
      ];
    };
    const intruderShops = async () =>
      (await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM merchants WHERE name = 'Intruder Shop'`))[0].n;

    it.each<[string, string | undefined]>([
      ['no Authorization header', undefined],
      ['a Basic header', 'Basic dGVzdDp0ZXN0'],
      ['"Bearer" alone', 'Bearer'],
    ])('refuses %s with 401 authentication_required', async (_description, authorization) => {
      for (const call of calls(authorization)) {
        expectApiError(await call(), { status: 401, code: 'authentication_required' });
      }
      await expect(intruderShops()).resolves.toBe(0);
    });

    it('refuses a wrong ADMIN_TOKEN or an API key with 401 api_key_invalid', async () => {
      const { key } = await api.merchantWithKey('test');
      for (const token of ['wrong-admin-token', 'test-admin-token-and-more', key]) {
        for (const call of calls(`Bearer ${token}`)) {
          expectApiError(await call(), { status: 401, code: 'api_key_invalid' });
        }
      }
      await expect(intruderShops()).resolves.toBe(0);
    });

    it('pauses an address after 20 wrong tokens in 5 minutes, the right token included, and no other', async () => {
      const attacker = '198.51.100.41';
      const firstGuessAt = Date.now();
      for (let i = 0; i < 5; i++) {
        for (const call of calls(`Bearer guess-${i}`, attacker)) {
          expectApiError(await call(), { status: 401, code: 'api_key_invalid' });
        }
      }
      const [paused] = calls(`Bearer ${ADMIN_TOKEN}`, attacker);
      const response = await paused();
      expectApiError(response, { status: 429, code: 'rate_limited' });
      // The pause ends 5 minutes after the failures began, however long a busy machine took to make them.
      const sinceFirstGuess = Math.ceil((Date.now() - firstGuessAt) / 1000);
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(300 - sinceFirstGuess);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(300);
      await expect(intruderShops()).resolves.toBe(0);

      // The operator elsewhere is not held up (an unknown merchant: past authentication, 404).
      const elsewhere = calls(`Bearer ${ADMIN_TOKEN}`, '203.0.113.8')[1];
      expectApiError(await elsewhere(), { status: 404, code: 'resource_not_found' });
    });

    it('counts 60 wrong tokens sent at once one by one: 20 refused as wrong, the rest paused', async () => {
      const attacker = '198.51.100.42';
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => Promise.resolve(calls(`Bearer burst-${i}`, attacker)[1]())),
      );
      expect(answers.filter((answer) => answer.status === 401)).toHaveLength(20);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(40);
    });

    it("never pauses an operator's tool for its own requests in flight: 60 at once with the right token all pass", async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, () => Promise.resolve(calls(`Bearer ${ADMIN_TOKEN}`, '198.51.100.43')[1]())),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 404));
    });
  });
});
