import { englishWords } from '../../../../../test/support/korean-text';
import { passwordResetEmail, wrongCodesEmail } from './login-emails';

const to = 'owner@shop.example';
const link = 'https://payhook.example/console/reset/AbC_dEf-123';

/** A key or a placeholder left as it is would show as Latin words or braces. */
function expectKorean(email: { subject: string; text: string }) {
  const all = `${email.subject}\n${email.text}`;
  expect(all).not.toMatch(/[{}]/);
  expect(englishWords(all)).toEqual([]);
}

describe('passwordResetEmail', () => {
  it('in English: the login, how long the link works and the link on a line of its own', () => {
    const email = passwordResetEmail('en', { to, link, validMinutes: 60 });
    expect(email.to).toEqual([to]);
    expect(email.subject).toBe('Set a new password for your payhook console login');
    expect(email.text).toContain(`the payhook console login ${to}.`);
    expect(email.text).toContain(`(the link works once, for 60 minutes):\n${link}\n\n`);
    expect(email.text).toContain('If you did not ask, ignore this e-mail: your password is unchanged.\n');
  });

  it('in Korean', () => {
    const email = passwordResetEmail('ko', { to, link, validMinutes: 60 });
    expectKorean(email);
    expect(email.subject).toBe('payhook 콘솔 로그인 비밀번호를 새로 설정하세요');
    expect(email.text).toContain(`로그인 ${to}의 비밀번호`);
    expect(email.text).toContain(`60분 동안 한 번만 쓸 수 있습니다):\n${link}\n\n`);
    expect(email.text).toContain('이 이메일을 무시하세요');
  });
});

describe('wrongCodesEmail', () => {
  it('in English: how many codes, within how long, and what to do', () => {
    const email = wrongCodesEmail('en', { to, max: 10, windowMinutes: 60 });
    expect(email.subject).toBe('Wrong two-step codes for your payhook console login');
    expect(email.text).toContain(`as ${to} with your password, then gave 10 wrong two-step codes within 60 minutes.`);
    expect(email.text).toContain("ask your team's owner to remove the login, and set a new password.\n");
    expect(wrongCodesEmail('en', { to, max: 1, windowMinutes: 1 }).text).toContain(
      'gave 1 wrong two-step code within 1 minute.',
    );
  });

  it('in Korean', () => {
    const email = wrongCodesEmail('ko', { to, max: 10, windowMinutes: 60 });
    expectKorean(email);
    expect(email.subject).toBe('payhook 콘솔 로그인에 잘못된 2단계 인증 코드가 입력되었습니다');
    expect(email.text).toContain(`${to}(으)로 로그인한 뒤, 60분 안에 2단계 인증 코드를 10번 잘못 입력했습니다.`);
  });
});
