import type { LoginMailKey } from './en';

/** The login e-mails in Korean: en.ts's keys, in the words of a Korean PG's merchant back office. */
export const ko: Readonly<Record<LoginMailKey, string>> = {
  'reset.subject': 'payhook 콘솔 로그인 비밀번호를 새로 설정하세요',
  'reset.text':
    'payhook 콘솔 로그인 {email}의 비밀번호를 새로 설정해 달라는 요청이 있었습니다.\n\n' +
    '아래 링크에서 설정하세요(링크는 {minutes, plural, other {#분}} 동안 한 번만 쓸 수 있습니다):\n{link}\n\n' +
    '이 주소로 팀원으로 등록된 모든 가맹점의 콘솔 로그인 비밀번호가 함께 바뀝니다. 2단계 인증을 켜 두었다면 ' +
    '그대로 유지됩니다. 직접 요청하지 않았다면 이 이메일을 무시하세요. 비밀번호는 그대로입니다.\n',

  'wrongCodes.subject': 'payhook 콘솔 로그인에 잘못된 2단계 인증 코드가 입력되었습니다',
  'wrongCodes.text':
    '누군가 비밀번호를 맞게 입력해 payhook 콘솔에 {email}(으)로 로그인한 뒤, ' +
    '{minutes, plural, other {#분}} 안에 2단계 인증 코드를 {max, plural, other {#번}} 잘못 입력했습니다. ' +
    '이 로그인의 2단계 인증 코드 입력은 최대 {minutes, plural, other {#분}} 동안 제한됩니다.\n\n' +
    '본인이 입력했다면 따로 조치하실 필요가 없습니다. 본인이 아니라면 누군가 비밀번호를 알고 있는 것입니다. ' +
    '팀 소유자에게 이 로그인을 팀에서 제거해 달라고 요청하고, 비밀번호를 새로 설정하세요.\n',
};
