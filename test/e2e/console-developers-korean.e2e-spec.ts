import { EVENT_TYPES } from '@payhook/contracts';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords, visibleText } from '../support/korean-text';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

const PASSWORD = 'a long enough password 1';
/** What any Developers page shows as it is in every language: event types and the merchant's zone. */
const DATA = [...EVENT_TYPES, 'Asia/Seoul'];

/**
 * The Developers pages as a member whose browser asks for no language reads them: Korean, the
 * console's default. Every page and state is rendered with real data (endpoints failing and
 * disabled, secrets in rotation, keys rolled, revoked and expired, an integration test run) and every
 * notice and refusal its forms give; none may show English beyond data, code and the names that stay.
 * The same pages asked for in English are English.
 */
describe('the console Developers pages in Korean', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    // Private and plain-http addresses refused, as in production: the page says those refusals too.
    api = await PaymentsApiHarness.start({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', RATE_LIMIT_PER_SECOND: '0' });
  });
  afterAll(() => api.stop());

  /** A new merchant's owner, signed in. */
  async function owner(name: string): Promise<{ shop: Merchant; client: ConsoleClient }> {
    const shop = await approvedMerchant(api, { name });
    return { shop, client: await ConsoleClient.login(api, shop.email) };
  }

  /** A GET as a browser that asks for no language sends it; `en` asks for English. */
  const get = (client: ConsoleClient, path: string, language?: 'en') => {
    const request = api.http().get(path).set('Cookie', client.cookie);
    return language ? request.set('Accept-Language', language) : request;
  };

  /** A form post as a browser that asks for no language sends it: the page it answers with is Korean. */
  const post = (client: ConsoleClient, path: string, form: Record<string, string | string[]> = {}) => {
    const fields = new URLSearchParams({ csrf: client.csrf });
    for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) fields.append(name, one);
    return api.http().post(path).set('Cookie', client.cookie).type('form').send(fields.toString());
  };

  /** The page a form's 303 leads to, read in Korean. */
  const followed = async (client: ConsoleClient, answer: { headers: Record<string, string> }) =>
    (await get(client, answer.headers.location.split('#')[0]).expect(200)).text;

  /** The ids and key endings of a merchant's page: data, the same in every language. */
  async function dataOf(shop: Merchant): Promise<string[]> {
    const rows = await api.sql<{ value: string }>(
      `SELECT key_last4 AS value FROM api_keys WHERE merchant_id = $1
       UNION ALL SELECT id FROM api_keys WHERE merchant_id = $1
       UNION ALL SELECT id FROM webhook_endpoints WHERE merchant_id = $1
       UNION ALL SELECT id FROM integration_tests WHERE merchant_id = $1`,
      [shop.merchantId],
    );
    return [...DATA, ...rows.map((row) => row.value)];
  }

  /** A Korean page: its `lang`, no message syntax left, and no English in its text or its labels. */
  async function expectKorean(page: string, shop: Merchant, ...texts: string[]) {
    expect(page).toContain('<html lang="ko">');
    const text = visibleText(page).replace(/\s+/g, ' ');
    expect(text).not.toMatch(/[{}]|undefined|NaN|\[object/);
    for (const each of texts) expect(text).toContain(each);
    const data = await dataOf(shop);
    expect(englishWords(page, data)).toEqual([]);
    const labels = [...page.matchAll(/(?:aria-label|data-label)="([^"]*)"/g)].map((match) => match[1]).join(' ');
    expect(englishWords(labels, data)).toEqual([]);
  }

  /** A page read in Korean (with `texts`), then in English. */
  async function inBoth(client: ConsoleClient, shop: Merchant, path: string, ...texts: string[]) {
    const korean = (await get(client, path).expect(200)).text;
    await expectKorean(korean, shop, ...texts);
    const english = (await get(client, path, 'en').expect(200)).text;
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('payhook console</title>');
    expect(english).not.toContain('개발자');
    return korean;
  }

  it("shows a new merchant's page, its first refusals and an integration test run", async () => {
    const { shop, client } = await owner('새벽 책방');
    await inBoth(
      client,
      shop,
      '/console/developers',
      '개발자',
      '라이브 전환',
      '아직 실행한 연동 테스트가 없습니다.',
      '설정된 엔드포인트가 없습니다.',
      '연동 테스트를 통과하면 라이브 모드가 열립니다.',
      'API 키',
    );

    const noSecret = await post(client, '/console/developers/rotate-secret', { mode: 'test' }).expect(400);
    await expectKorean(noSecret.text, shop, '먼저 테스트 웹훅 URL을 설정하세요.');
    const noEndpoint = await post(client, '/console/developers/webhook-endpoint/enable', { mode: 'test' }).expect(400);
    await expectKorean(noEndpoint.text, shop, '테스트 웹훅 엔드포인트가 설정되어 있지 않습니다.');

    // No test endpoint is set: the run fails at once, each scenario saying why (the runner's English, marked so).
    const started = await post(client, '/console/developers/integration-tests').expect(303);
    await expectKorean(await followed(client, started), shop, '연동 테스트를 시작했습니다.');
    const finished = await pollUntil(
      async () => (await get(client, '/console/developers').expect(200)).text,
      (text) => !text.includes('결과 확인'),
      { intervalMs: 200 },
    );
    await expectKorean(finished, shop, '결제 완료 전달', '재전송', '동시 중복 전달', '위조 요청 거부', '시작');
    expect(finished).toMatch(/<span class="badge failed">실패<\/span> <code>itr_/);
    expect(finished).toContain('<td lang="en">No test webhook endpoint is set');
    await inBoth(client, shop, '/console/developers', '연동 테스트');
  });

  it('says why a webhook URL or its events are refused', async () => {
    const { shop, client } = await owner('가람 상점');
    const form = { mode: 'test', url: 'https://shop.example/hooks', 'events-listed': '1', events: 'payment.completed' };
    const refusals: [Record<string, string | string[]>, string][] = [
      [{ url: 'ftp://shop.example/hooks' }, 'URL은 공백 없는 HTTP 또는 HTTPS 절대 주소여야 하며, 최대 2,048자까지'],
      [{ events: [] }, '보낼 이벤트 유형을 하나 이상 고르세요: payment.completed'],
      [{ url: 'https://user:secret@shop.example/hooks' }, 'URL에 사용자 이름이나 비밀번호를 넣을 수 없습니다.'],
      [{ url: 'https://127.0.0.1/hooks' }, 'URL은 루프백, 사설 또는 링크 로컬 주소를 가리킬 수 없습니다.'],
      [
        { url: `https://shop.example/${'한'.repeat(300)}` },
        'URL은 인코딩한 뒤의 길이(한글 등은 퍼센트 인코딩)로 최대 2,048자',
      ],
      [{ mode: 'live' }, '연동 테스트를 통과하면 라이브 모드가 열립니다.'],
    ];
    for (const [change, message] of refusals) {
      const refused = await post(client, '/console/developers/webhook-endpoint', { ...form, ...change }).expect(400);
      expect(refused.text).toContain(`<p class="error" role="alert">${message}`);
      await expectKorean(refused.text, shop);
    }
    const tooLong = await post(client, '/console/developers/endpoints', {
      ...form,
      description: '설'.repeat(201),
    }).expect(400);
    await expectKorean(tooLong.text, shop, '설명은 출력 가능한 문자로 된 한 줄이어야 하며, 최대 200자까지');
  });

  it('shows endpoints, their health, secrets and every change of them', async () => {
    const { shop, client } = await owner('한빛 상점');
    const saved = await post(client, '/console/developers/webhook-endpoint', {
      mode: 'test',
      url: 'https://shop.example/hooks',
      'events-listed': '1',
      events: ['payment.completed', 'refund.succeeded'],
    }).expect(303);
    await expectKorean(await followed(client, saved), shop, '웹훅 URL을 저장했습니다.', '이벤트를 받고 있습니다.');
    const added = await post(client, '/console/developers/endpoints', {
      mode: 'test',
      url: 'https://books.example/hooks',
      description: '회계 시스템',
      'events-listed': '1',
      events: 'payment.completed',
    }).expect(303);
    await expectKorean(
      await followed(client, added),
      shop,
      '웹훅 엔드포인트를 추가했습니다.',
      '테스트 엔드포인트 추가',
    );
    const endpoints = await api.sql<{ id: string; url: string }>(
      `SELECT id, url FROM webhook_endpoints WHERE merchant_id = $1 ORDER BY created_at`,
      [shop.merchantId],
    );
    const [first, books] = endpoints.map((endpoint) => endpoint.id);

    // Both failing, as the dispatcher records it.
    await api.sql(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour', consecutive_failures = 3,
         last_error = 'HTTP 500' WHERE merchant_id = $1`,
      [shop.merchantId],
    );
    await inBoth(
      client,
      shop,
      '/console/developers',
      '부터 실패하고 있습니다. 자동 전송이 연속 3번 실패했습니다.',
      '마지막 오류:',
      '에도 계속 실패하면 payhook이 이 엔드포인트를 끕니다.',
      '다시 보낼 실패 이벤트',
      '최근 24시간',
    );
    const recovered = await post(client, '/console/developers/recover', { mode: 'test', days: '7' }).expect(200);
    await expectKorean(recovered.text, shop, '실패한 테스트 이벤트 0건을 다시 보내도록 대기열에 넣었습니다.');
    const noPeriod = await post(client, '/console/developers/recover', { mode: 'test', days: '2' }).expect(400);
    await expectKorean(noPeriod.text, shop, '다시 보낼 기간을 고르세요.');

    const disabled = await post(client, `/console/developers/endpoints/${books}/disable`, { mode: 'test' }).expect(303);
    await expectKorean(
      await followed(client, disabled),
      shop,
      '웹훅 엔드포인트를 껐습니다.',
      '에 꺼졌습니다. 이 엔드포인트로는 아무것도 보내지 않으며',
    );
    // The first one disabled by the dispatcher after its failures, then by hand.
    await api.sql(`UPDATE webhook_endpoints SET status = 'disabled', disabled_at = now() WHERE id = $1`, [first]);
    await inBoth(client, shop, '/console/developers', '부터 자동 전송이 계속 실패했습니다.', '엔드포인트 다시 켜기');
    const enabled = await post(client, '/console/developers/webhook-endpoint/enable', { mode: 'test' }).expect(303);
    await expectKorean(await followed(client, enabled), shop, '웹훅 엔드포인트를 다시 켰습니다.');
    await post(client, `/console/developers/endpoints/${first}/disable`, { mode: 'test' }).expect(303);
    await inBoth(
      client,
      shop,
      '/console/developers',
      '에 수동으로 꺼졌습니다. 새 이벤트는 보내지 않고 실패로 남깁니다.',
    );
    await post(client, '/console/developers/webhook-endpoint/enable', { mode: 'test' }).expect(303);

    await inBoth(
      client,
      shop,
      '/console/developers/rotate-secret?mode=test',
      '테스트 서명 시크릿을 교체할까요?',
      '24시간',
    );
    const rotated = await post(client, '/console/developers/rotate-secret', { mode: 'test', overlap: '86400' });
    expect(rotated.status).toBe(303);
    await expectKorean(await followed(client, rotated), shop, '서명 시크릿을 교체했습니다.', '까지는 이전 시크릿도');

    await inBoth(
      client,
      shop,
      `/console/developers/endpoints/${books}/rotate-secret?mode=test`,
      '회계 시스템 엔드포인트의 서명 시크릿을 교체할까요?',
    );
    await inBoth(
      client,
      shop,
      `/console/developers/endpoints/${books}/delete?mode=test`,
      '회계 시스템 엔드포인트를 삭제할까요?',
    );
    const badEdit = await post(client, `/console/developers/endpoints/${books}`, {
      mode: 'test',
      url: 'not a url',
      'events-listed': '1',
      events: 'payment.completed',
    }).expect(400);
    await expectKorean(badEdit.text, shop, 'HTTP 또는 HTTPS 절대 주소');
    const edited = await post(client, `/console/developers/endpoints/${books}`, {
      mode: 'test',
      url: 'https://books.example/v2/hooks',
      description: '회계 시스템',
      'events-listed': '1',
      events: 'payment.completed',
    }).expect(303);
    await expectKorean(await followed(client, edited), shop, '웹훅 엔드포인트를 저장하고 켰습니다.');
    const deleted = await post(client, `/console/developers/endpoints/${books}/delete`, { mode: 'test' }).expect(303);
    await expectKorean(await followed(client, deleted), shop, '웹훅 엔드포인트를 삭제했습니다.');
    const gone = await post(client, `/console/developers/endpoints/${books}/disable`, { mode: 'test' }).expect(400);
    expect(gone.text).toContain(`해당 웹훅 엔드포인트가 없습니다: ${books}`);
    // The deleted endpoint's id is data the database no longer lists.
    await expectKorean(gone.text.replace(books, ''), shop);
  });

  it('shows API keys made, rolled, revoked and expired, and the refusals of each', async () => {
    const { shop, client } = await owner('바다 상점');
    const made = await post(client, '/console/developers/keys', { mode: 'test' }).expect(200);
    await expectKorean(made.text, shop, '새 테스트 키입니다. 지금 복사해 두세요.', '사용 중', '없음');
    await expectKorean(
      (await post(client, '/console/developers/keys', { mode: 'live' }).expect(403)).text,
      shop,
      '연동 테스트를 통과하면 라이브 키를 발급할 수 있습니다.',
    );
    await expectKorean(
      (await post(client, '/console/developers/keys', { mode: 'both' }).expect(400)).text,
      shop,
      '테스트 또는 라이브를 고르세요.',
    );

    const keyIds = async () =>
      (
        await api.sql<{ id: string }>(
          `SELECT id FROM api_keys WHERE merchant_id = $1 AND revoked_at IS NULL AND expires_at IS NULL ORDER BY created_at`,
          [shop.merchantId],
        )
      ).map((row) => row.id);
    const [operatorKey, consoleKey] = await keyIds();
    const rolled = await post(client, `/console/developers/keys/${consoleKey}/roll`, { overlapDays: '1' }).expect(200);
    await expectKorean(
      rolled.text,
      shop,
      '키를 재발급했습니다. 기존 키는 1일 동안 더 쓸 수 있고',
      '까지 사용 가능',
      '만료 예정',
    );
    await expectKorean(
      (await post(client, `/console/developers/keys/${consoleKey}/roll`, { overlapDays: '1' }).expect(404)).text,
      shop,
      `재발급할 수 없는 API 키입니다(이미 재발급했거나 사용 중이 아님): ${consoleKey}`,
    );
    await expectKorean(
      (await post(client, `/console/developers/keys/${operatorKey}/roll`, { overlapDays: '5' }).expect(400)).text,
      shop,
      '기존 키 유지 기간을 0~7일 중에서 고르세요.',
    );
    const stopped = await post(client, `/console/developers/keys/${operatorKey}/roll`, { overlapDays: '0' });
    await expectKorean(stopped.text, shop, '기존 키는 바로 중지되었습니다.', '에 철회됨');
    const [rolledInto] = await keyIds();
    const revoked = await post(client, `/console/developers/keys/${rolledInto}/revoke`).expect(303);
    await expectKorean(await followed(client, revoked), shop, 'API 키를 철회했습니다. 5초 안에 사용이 중지됩니다.');
    await expectKorean(
      (await post(client, `/console/developers/keys/${rolledInto}/revoke`).expect(404)).text,
      shop,
      `사용 중인 API 키가 아닙니다: ${rolledInto}`,
    );
    await api.sql(`UPDATE api_keys SET expires_at = now() WHERE id = $1`, [consoleKey]);
    await inBoth(client, shop, '/console/developers', '에 만료됨', '발급 일시', '마지막 사용');

    // At the limit, a new key and a roll (whose old key would keep working) are refused, naming the mode.
    while ((await keyIds()).length < 10) await post(client, '/console/developers/keys', { mode: 'test' }).expect(200);
    const limit = '테스트 모드의 활성 키는 최대 10개까지 둘 수 있습니다';
    await expectKorean(
      (await post(client, '/console/developers/keys', { mode: 'test' }).expect(409)).text,
      shop,
      limit,
    );
    const [oldest] = await keyIds();
    const rollRefused = await post(client, `/console/developers/keys/${oldest}/roll`, { overlapDays: '1' }).expect(409);
    await expectKorean(rollRefused.text, shop, limit);
  });

  it('says every notice a redirect names', async () => {
    const { shop, client } = await owner('노을 상점');
    const notices = {
      'url-saved': '웹훅 URL을 저장했습니다.',
      'secret-rotated': '서명 시크릿을 교체했습니다.',
      'test-started': '연동 테스트를 시작했습니다.',
      'endpoint-enabled': '웹훅 엔드포인트를 다시 켰습니다.',
      'endpoint-added': '웹훅 엔드포인트를 추가했습니다.',
      'endpoint-saved': '웹훅 엔드포인트를 저장하고 켰습니다.',
      'endpoint-disabled': '웹훅 엔드포인트를 껐습니다.',
      'endpoint-deleted': '웹훅 엔드포인트를 삭제했습니다.',
      'key-revoked': 'API 키를 철회했습니다.',
    };
    for (const [notice, text] of Object.entries(notices)) {
      const page = await inBoth(client, shop, `/console/developers?notice=${notice}`);
      expect(page).toContain(`<p class="notice" role="status">${text}`);
    }
  });

  it("shows a viewer, a live merchant, one in review and a mode's last endpoint their page", async () => {
    // A viewer: the secrets are not theirs to see.
    const { shop, client } = await owner('숲 상점');
    await api.as(shop).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
    await api.as(shop).post('/v1/webhook-endpoints').send({ url: 'https://books.example/hooks' }).expect(201);
    const invited = await post(client, '/console/team/invites', { email: 'viewer@shop.example', role: 'viewer' });
    const link = /<code data-invite-link>([^<]+)<\/code>/.exec(invited.text)![1];
    await api
      .http()
      .post(new URL(link).pathname)
      .type('form')
      .send({ password: PASSWORD, passwordAgain: PASSWORD })
      .expect(303);
    const viewer = await ConsoleClient.login(api, 'viewer@shop.example', PASSWORD);
    const viewed = await inBoth(viewer, shop, '/console/developers', '서명 시크릿은 개발자와 소유자에게만 보입니다.');
    expect(viewed).not.toContain('whsec_');

    // Live: its own endpoint form and keys, https only.
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [shop.merchantId]);
    await inBoth(client, shop, '/console/developers', '라이브 모드입니다.', '라이브 웹훅 URL', '라이브');
    const plain = await post(client, '/console/developers/webhook-endpoint', {
      mode: 'live',
      url: 'http://shop.example/live',
    }).expect(400);
    await expectKorean(plain.text, shop, '라이브 모드의 URL은 HTTPS를 사용해야 합니다.');
    const live = await post(client, '/console/developers/keys', { mode: 'live' }).expect(200);
    await expectKorean(live.text, shop, '새 라이브 키입니다.');

    // A mode at its most endpoints: no form to add one, and the API's limit said in Korean.
    const { shop: full, client: fullClient } = await owner('가득 상점');
    await api.as(full).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
    for (let n = 2; n <= 16; n++) {
      await api
        .as(full)
        .post('/v1/webhook-endpoints')
        .send({ url: `https://shop.example/hooks/${n}` })
        .expect(201);
    }
    await inBoth(fullClient, full, '/console/developers', '이 모드의 엔드포인트가 최대 개수인 16개에 도달했습니다.');
    const over = await post(fullClient, '/console/developers/endpoints', {
      mode: 'test',
      url: 'https://shop.example/hooks/17',
      'events-listed': '1',
      events: 'payment.completed',
    }).expect(400);
    await expectKorean(over.text, full, '한 모드에는 웹훅 엔드포인트를 최대 16개까지 둘 수 있습니다.');

    // In review again (the operator's call): the page says payhook is looking.
    await api.sql(`UPDATE merchants SET status = 'review' WHERE id = $1`, [full.merchantId]);
    await inBoth(fullClient, full, '/console/developers', 'payhook에서 계정을 심사하고 있습니다.');
  });
});
