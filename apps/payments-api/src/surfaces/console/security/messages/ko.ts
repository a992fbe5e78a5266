import type { ConsoleSecurityKey } from './en';

/** "내 계정" in Korean: en.ts's keys. */
export const ko: Readonly<Record<ConsoleSecurityKey, string>> = {
  title: '내 계정',
  signedInAs: '{email}(으)로 로그인했습니다({role, select, owner {소유자} developer {개발자} other {조회자}}).',

  'language.heading': '언어',
  'language.text':
    '이 가맹점의 콘솔과 payhook이 보내는 이메일에 이 언어를 씁니다. 브라우저 설정을 따르는 동안 이메일은 한국어로 보냅니다.',
  'language.invalid': '제공되는 언어 중 하나를 고르세요.',
  'language.label': '콘솔 언어',
  'language.browser': '브라우저 설정 따르기({language})',
  'language.save': '언어 저장',
  'language.saved': '언어를 저장했습니다.',

  'password.heading': '비밀번호',
  'password.current': '현재 비밀번호',
  'password.new': '새 비밀번호({min}~{max}자)',
  'password.again': '새 비밀번호 확인',
  'password.submit': '비밀번호 변경',
  'password.changed': '비밀번호를 바꿨습니다. 다른 세션은 모두 로그아웃되었습니다.',
  'password.wrong': '현재 비밀번호가 틀렸습니다.',

  'twoStep.off.heading': '2단계 인증이 꺼져 있습니다',
  'twoStep.off.text': '켜면 로그인할 때 휴대폰 인증 앱의 코드도 입력해야 합니다.',
  'twoStep.password': '비밀번호',
  'twoStep.setUp': '2단계 인증 설정',
  'twoStep.passwordWrong': '비밀번호가 틀렸습니다.',
  'twoStep.turnOn.heading': '2단계 인증 켜기',
  'twoStep.turnOn.text':
    '인증 앱으로 이 코드를 스캔하거나 시크릿을 직접 입력한 뒤, 앱에 표시되는 6자리 코드를 입력하세요.',
  'twoStep.qr': '2단계 인증 시크릿의 QR 코드',
  'twoStep.secret': '시크릿:',
  'twoStep.confirmCode': '앱의 6자리 코드',
  'twoStep.turnOn': '켜기',
  'twoStep.wrongCode': '코드가 틀렸거나 이미 사용되었습니다. 다음 코드를 기다렸다가 다시 입력하세요.',
  'twoStep.wrongSetupCode':
    '코드가 틀렸거나 이미 사용되었습니다. 다음 코드를 기다렸다가 다시 입력하세요. 새 QR 코드가 필요하면 내 계정을 다시 열고 비밀번호로 다시 설정하세요.',
  'twoStep.codes.heading': '복구 코드',
  'twoStep.codes.text':
    '2단계 인증이 켜졌습니다. 이 코드를 안전한 곳에 보관하세요. 휴대폰이 없을 때 코드 하나로 한 번 로그인할 수 있습니다. 코드는 지금만 표시됩니다.',
  'twoStep.codes.done': '완료',
  'twoStep.on.heading': '2단계 인증이 켜져 있습니다',
  'twoStep.on.unused': '쓰지 않은 복구 코드가 {count, plural, other {#개}} 남았습니다.',
  'twoStep.disableCode': '끄려면 현재 코드 또는 복구 코드를 입력하세요',
  'twoStep.disable': '2단계 인증 끄기',
  'twoStep.disabled': '2단계 인증을 껐습니다.',
};
