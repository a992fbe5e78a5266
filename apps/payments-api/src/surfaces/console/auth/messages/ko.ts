import type { ConsoleAuthKey } from './en';

/** The console's sign-in pages in Korean: en.ts's keys. */
export const ko: Readonly<Record<ConsoleAuthKey, string>> = {
  'login.title': '로그인',
  'login.email': '이메일',
  'login.password': '비밀번호',
  'login.submit': '로그인',
  'login.forgot': '비밀번호를 잊으셨나요?',
  'login.setByApproval': '로그인 정보는 payhook이 가맹점 계정을 승인할 때 정해집니다.',
  'login.refused': '이메일 또는 비밀번호가 틀렸습니다.',
  'login.formExpired': '로그인 양식이 만료되었습니다. 로그인 페이지를 다시 여세요.',
  'login.notice.joined': '팀에 합류했습니다. 이메일과 방금 정한 비밀번호로 로그인하세요.',
  'login.notice.passwordReset':
    '모든 가맹점의 로그인에 새 비밀번호가 적용되었고, 그 로그인의 세션은 모두 종료되었습니다. 새 비밀번호로 로그인하세요.',

  'secondStep.title': '2단계 인증',
  'secondStep.code': '인증 앱의 코드 또는 복구 코드',
  'secondStep.submit': '계속',
  'secondStep.other': '다른 사람으로 로그인',
  'secondStep.recovery':
    '복구 코드는 한 번만 쓸 수 있습니다. 휴대폰과 복구 코드를 모두 잃어버렸다면 계정의 다른 소유자가 회원님을 팀에서 내보낸 뒤 다시 초대할 수 있습니다.',
  'secondStep.formExpired': '이 양식이 만료되었습니다. 로그인 페이지를 다시 여세요.',
  'secondStep.wrongCode': '코드가 틀렸거나 이미 사용되었습니다. 다음 코드를 기다렸다가 다시 입력하세요.',
  'secondStep.ended': '틀린 코드가 너무 많습니다. 비밀번호로 다시 로그인하세요.',

  'choose.title': '가맹점 선택',
  'choose.text': '이 이메일과 비밀번호로 여러 가맹점의 콘솔을 열 수 있습니다. 지금 어느 곳을 여시겠습니까?',
  'choose.later': '나중에 다른 곳을 열려면 로그아웃한 뒤 다시 로그인하세요.',
  'choose.gone': '이미 선택했거나 선택 시간이 지났습니다({minutes, plural, other {#분}} 동안 유효). 다시 로그인하세요.',

  'forgot.title': '비밀번호 찾기',
  'forgot.text':
    '새 비밀번호를 정하는 링크를 이메일로 보내 드립니다. 링크는 {minutes, plural, other {#분}} 동안 한 번 쓸 수 있습니다.',
  'forgot.submit': '링크 보내기',
  'forgot.back': '로그인으로 돌아가기',
  'forgot.sent.title': '이메일을 확인하세요',
  'forgot.sent':
    '{email}에 콘솔 로그인이 있다면 새 비밀번호를 정하는 링크가 담긴 이메일을 보냈습니다. 링크는 {minutes, plural, other {#분}} 동안 한 번 쓸 수 있습니다.',
  'forgot.noMail':
    '이메일이 오지 않나요? 주소를 확인하거나, 계정의 다른 소유자에게 로그인을 지우고 다시 초대해 달라고 요청하세요.',
  'forgot.unavailable':
    '이 payhook은 이메일을 보내지 않으므로 재설정 링크를 보낼 수 없습니다. 계정의 다른 소유자가 로그인을 지우고 다시 초대할 수 있습니다.',

  'reset.title': '새 비밀번호 설정',
  'reset.for': '콘솔 로그인 {email}의 새 비밀번호입니다. 이 로그인의 모든 세션이 종료됩니다.',
  'reset.password': '새 비밀번호({min}~{max}자)',
  'reset.again': '새 비밀번호 확인',
  'reset.submit': '비밀번호 설정',
  'reset.unusable.title': '쓸 수 없는 링크',
  'reset.unusable':
    '이미 사용했거나, 만료되었거나({minutes, plural, other {#분}} 동안 유효), 알 수 없는 링크입니다. 로그인 페이지에서 새 링크를 요청하세요.',
};
