import { CONSOLE_LANGUAGE, ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness } from '../support/payments-api.harness';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

const PASSWORD = 'a long enough password 1';
/** The link on the team page right after an invite was made (e-mail is off here). */
const inviteLinkOf = (page: string) => new URL(/<code data-invite-link>([^<]+)<\/code>/.exec(page)![1]).pathname;

/**
 * The team pages, the audit log and the invite link's page as a browser that asks for no language
 * reads them: in Korean, with no English left but data and code; and in English when asked.
 */
describe('console team and audit log in Korean', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  let owner: ConsoleClient;
  /** What the pages show as data outside `<code>`: the zone, ids beside names, client addresses. */
  const data = ['Asia/Seoul'];

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    shop = await approvedMerchant(api, { name: '한빛상회' });
    owner = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  /** A signed-in client's request as a browser without Accept-Language sends it. */
  const get = (client: ConsoleClient, path: string) => api.http().get(path).set('Cookie', client.cookie);
  const post = (client: ConsoleClient, path: string, form: Record<string, string> = {}) =>
    api
      .http()
      .post(path)
      .set('Cookie', client.cookie)
      .type('form')
      .send({ csrf: client.csrf, ...form });

  function expectKorean(page: string, ...words: string[]): void {
    expect(page).toContain('<html lang="ko">');
    for (const word of words) expect(page).toContain(word);
    expect(englishWords(page, data)).toEqual([]);
  }

  const memberId = async (email: string) =>
    (await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [email]))[0].id;
  const inviteId = async (email: string) =>
    (await api.sql<{ id: string }>(`SELECT id FROM member_invites WHERE email = $1`, [email]))[0].id;

  it('joins by an invite link on a Korean page, and refuses an unusable link in Korean', async () => {
    const made = await post(owner, '/console/team/invites', { email: 'dev@hanbit.example', role: 'developer' }).expect(
      200,
    );
    expectKorean(made.text, '초대를 만들었습니다', '<strong>dev@hanbit.example</strong>(개발자)');
    const link = inviteLinkOf(made.text);

    const page = await api.http().get(link).expect(200);
    expectKorean(
      page.text,
      '팀 초대 수락',
      '<strong>한빛상회</strong> 팀에 <strong>개발자</strong>로',
      '비밀번호(12~200자)',
    );
    const accept = (passwordAgain: string) =>
      api.http().post(link).type('form').send({ password: PASSWORD, passwordAgain });
    expectKorean((await accept(`${PASSWORD}x`).expect(400)).text, '두 새 비밀번호가 서로 다릅니다.');
    await accept(PASSWORD).expect(303).expect('Location', '/console/login?notice=joined');

    for (const unusable of [await accept(PASSWORD), await api.http().get(link), await api.http().get(`${link}x`)]) {
      expect(unusable.status).toBe(404);
      expectKorean(unusable.text, '사용할 수 없는 초대', '계정 소유자에게 새 링크를 요청하세요');
    }
    const english = await api.http().get(link).set(CONSOLE_LANGUAGE).expect(404);
    expect(english.text).toContain('<html lang="en">');
  });

  it('shows members, invites in every state, the notices and every refusal in Korean', async () => {
    for (const email of ['open@hanbit.example', 'revoked@hanbit.example', 'late@hanbit.example']) {
      await post(owner, '/console/team/invites', { email, role: 'viewer' }).expect(200);
    }
    await post(owner, `/console/team/invites/${await inviteId('revoked@hanbit.example')}/revoke`)
      .expect(303)
      .expect('Location', '/console/team?notice=invite-revoked');
    await api.sql(`UPDATE member_invites SET expires_at = now() - interval '1 second' WHERE email = $1`, [
      'late@hanbit.example',
    ]);
    const resent = await post(owner, `/console/team/invites/${await inviteId('open@hanbit.example')}/resend`).expect(
      200,
    );
    expectKorean(resent.text, '<strong>open@hanbit.example</strong>(조회자) 초대를 만들었습니다');

    const team = await get(owner, '/console/team').expect(200);
    expectKorean(
      team.text,
      '<h1>팀</h1>',
      '(본인)',
      '사용 안 함',
      '소유자: 팀 관리를 포함한 모든 권한',
      '초대 내역',
      '>수락됨</span>',
      '>철회됨</span>',
      '>만료</span>',
      '>열림</span>',
      'open@hanbit.example 초대 철회',
      '<option value="viewer" >조회자</option>',
    );
    for (const [notice, text] of [
      ['role-changed', '역할을 변경했습니다.'],
      ['removed', '팀원을 삭제했습니다.'],
      ['invite-revoked', '초대를 철회했습니다.'],
    ]) {
      expectKorean((await get(owner, `/console/team?notice=${notice}`).expect(200)).text, text);
    }

    const ownerId = await memberId(shop.email);
    const revoked = await inviteId('revoked@hanbit.example');
    const refusals: [() => ReturnType<typeof post>, number, string][] = [
      [() => post(owner, '/console/team/invites', { email: 'x@hanbit.example', role: 'admin' }), 400, '초대할 역할을'],
      [
        () => post(owner, '/console/team/invites', { email: 'not an address', role: 'viewer' }),
        400,
        '이메일 주소를 입력',
      ],
      [
        () => post(owner, '/console/team/invites', { email: ' Dev@Hanbit.example', role: 'viewer' }),
        400,
        'dev@hanbit.example은(는) 이미 이 팀의 팀원입니다.',
      ],
      [() => post(owner, `/console/team/invites/${revoked}/resend`), 409, '초대를 철회하고 새로 초대하세요'],
      [() => post(owner, `/console/team/invites/${revoked}/revoke`), 404, '진행 중인 해당 초대가 없습니다'],
      [() => post(owner, `/console/team/members/${ownerId}/role`, { role: 'boss' }), 400, '역할 중 하나를'],
      [() => post(owner, `/console/team/members/${ownerId}/role`, { role: 'viewer' }), 409, '마지막 소유자의 역할은'],
      [() => post(owner, `/console/team/members/${ownerId}/remove`), 409, '마지막 소유자는 삭제할 수 없습니다'],
      [() => post(owner, `/console/team/members/mem_${'0'.repeat(24)}/remove`), 404, '해당 팀원이 없습니다'],
    ];
    for (const [send, status, text] of refusals) expectKorean((await send().expect(status)).text, text);
    // Three invites a day to an address: the fourth is refused.
    const busy = () => post(owner, '/console/team/invites', { email: 'busy@hanbit.example', role: 'viewer' });
    for (let n = 0; n < 3; n++) await busy().expect(200);
    expectKorean((await busy().expect(429)).text, '내일 다시 시도하세요');
  });

  it('asks before removing a member, and shows a non-owner the team without its controls', async () => {
    const devId = await memberId('dev@hanbit.example');
    expectKorean(
      (await get(owner, `/console/team/members/${devId}/remove`).expect(200)).text,
      '한빛상회 팀에서 dev@hanbit.example을(를) 삭제할까요?',
      '<strong>dev@hanbit.example</strong>(개발자)은(는) 모든 기기에서',
      '>취소</a>',
    );
    expectKorean(
      (await get(owner, `/console/team/members/${await memberId(shop.email)}/remove`).expect(200)).text,
      '한빛상회 팀에서 나갈까요?',
      '팀에서 나가기',
    );

    const developer = await ConsoleClient.login(api, 'dev@hanbit.example', PASSWORD);
    const seen = await get(developer, '/console/team').expect(200);
    expectKorean(seen.text, '팀원 초대, 삭제, 역할 변경은 소유자만 할 수 있습니다.');
    expect(seen.text).not.toContain('<form method="post" action="/console/team/invites">');

    await post(owner, `/console/team/members/${devId}/role`, { role: 'viewer' })
      .expect(303)
      .expect('Location', '/console/team?notice=role-changed');
    await post(owner, `/console/team/members/${devId}/remove`)
      .expect(303)
      .expect('Location', '/console/team?notice=removed');
  });

  it('shows the audit log in Korean: action names, filters, an empty filter and the pages', async () => {
    // A change through the API, with the key as actor (named by its mask).
    await api.as(shop).post('/v1/webhook-endpoints').send({ url: 'https://hanbit.example/hook' }).expect(201);
    // Older entries than a page holds, for the pager.
    await api.sql(
      `INSERT INTO audit_log (id, merchant_id, actor, action, target, client_address, created_at)
       SELECT 'aud_' || lpad(n::text, 24, '0'), $1, $2, 'member.password_changed', NULL, '203.0.113.7',
              now() - interval '1 day' - n * interval '1 minute'
       FROM generate_series(1, 60) AS n`,
      [shop.merchantId, shop.email],
    );
    const named = await api.sql<{ value: string }>(
      `SELECT DISTINCT unnest(ARRAY[actor, target, client_address]) AS value FROM audit_log WHERE merchant_id = $1`,
      [shop.merchantId],
    );
    data.push(...named.map((row) => row.value).filter(Boolean));

    const audit = await get(owner, '/console/audit').expect(200);
    expectKorean(
      audit.text,
      '<h1>감사 로그</h1>',
      '시간은 Asia/Seoul 기준입니다.',
      '팀원 초대 <code>member.invited</code>',
      '웹훅 엔드포인트 추가 <code>webhook_endpoint.created</code>',
      '<option value="">전체 작업</option>',
      '>조회</button>',
    );
    const older = /<a href="([^"]+)">이전<\/a>/.exec(audit.text)![1].replace(/&amp;/g, '&');
    expectKorean((await get(owner, older).expect(200)).text, '>최신</a>', '비밀번호 변경');
    expectKorean(
      (await get(owner, '/console/audit?action=member.joined').expect(200)).text,
      '<option value="member.joined" selected>팀원 참여</option>',
      '팀원 참여 <code>member.joined</code>',
    );
    expectKorean(
      (await get(owner, '/console/audit?actor=nobody%40hanbit.example').expect(200)).text,
      '조건에 맞는 기록이 없습니다.',
    );
  });

  it('shows the same pages in English to a browser that asks for it', async () => {
    const ownerId = await memberId(shop.email);
    for (const path of [
      '/console/team',
      '/console/team?notice=role-changed',
      `/console/team/members/${ownerId}/remove`,
      '/console/audit',
      '/console/audit?actor=nobody%40hanbit.example',
    ]) {
      const page = await owner.get(path).expect(200);
      expect(page.text).toContain('<html lang="en">');
    }
    const made = await owner
      .post('/console/team/invites', { email: 'english@hanbit.example', role: 'viewer' })
      .expect(200);
    expect(made.text).toContain('<html lang="en">');
    const invite = await api.http().get(inviteLinkOf(made.text)).set(CONSOLE_LANGUAGE).expect(200);
    expect(invite.text).toContain('<html lang="en">');
    expect(invite.text).toContain('Join the team');
  });
});
