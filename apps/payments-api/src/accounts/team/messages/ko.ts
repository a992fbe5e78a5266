import type { TeamMailKey } from './en';

/** The invite e-mail in Korean: en.ts's keys, with the console's role names (소유자, 개발자, 조회자). */
export const ko: Readonly<Record<TeamMailKey, string>> = {
  'invite.subject': 'payhook 콘솔에 초대되었습니다',
  'invite.text':
    '한 가맹점의 payhook 콘솔에 {role, select, owner {소유자} developer {개발자} other {조회자}} 역할로 초대되었습니다.\n\n' +
    '아래 링크에서 비밀번호를 설정하세요(링크는 {hours, plural, other {#시간}} 동안 한 번만 쓸 수 있습니다):\n{link}\n',
};
