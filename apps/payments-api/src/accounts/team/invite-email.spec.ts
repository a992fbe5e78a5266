import { englishWords } from '../../../../../test/support/korean-text';
import { inviteEmail } from './invite-email';

const link = 'https://payhook.example/console/invite/AbC_dEf-123';
const invite = { to: 'new.dev@team.example', role: 'developer' as const, link, validHours: 72 };

describe('inviteEmail', () => {
  it('in English: the role, how long the link works and the link on a line of its own', () => {
    const email = inviteEmail('en', invite);
    expect(email.to).toEqual(['new.dev@team.example']);
    expect(email.subject).toBe('You are invited to a payhook console');
    expect(email.text).toContain("You were invited as developer to a merchant's payhook console.");
    expect(email.text).toContain(`(the link works once, for 72 hours):\n${link}\n`);
  });

  it.each(['owner', 'developer', 'viewer'] as const)('in Korean, as %s: no English word, no placeholder', (role) => {
    const email = inviteEmail('ko', { ...invite, role });
    const all = `${email.subject}\n${email.text}`;
    expect(all).not.toMatch(/[{}]/);
    expect(englishWords(all)).toEqual([]);
    expect(email.subject).toBe('payhook 콘솔에 초대되었습니다');
    expect(email.text).toContain({ owner: '소유자', developer: '개발자', viewer: '조회자' }[role]);
    expect(email.text).toContain(`72시간 동안 한 번만 쓸 수 있습니다):\n${link}\n`);
  });
});
