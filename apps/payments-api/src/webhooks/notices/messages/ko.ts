import type { NoticeMailKey } from './en';

/** The notice e-mails in Korean: en.ts's keys, in the words of a Korean PG's merchant back office. */
export const ko: Readonly<Record<NoticeMailKey, string>> = {
  'duration.second': '{count, plural, other {#초}}',
  'duration.minute': '{count, plural, other {#분}}',
  'duration.hour': '{count, plural, other {#시간}}',
  'duration.day': '{count, plural, other {#일}}',

  endpoint: '엔드포인트: {id} ({host}), {mode, select, live {라이브} other {테스트}} 모드',
  'endpoint.described': '엔드포인트: {id} ({host}, "{description}"), {mode, select, live {라이브} other {테스트}} 모드',
  lastError: '마지막 오류: {error}',

  'failing.subject': 'payhook: {host} 웹훅 전송이 {duration} 동안 실패하고 있습니다',
  'failing.text':
    '{merchant}의 웹훅 엔드포인트로 보낸 자동 전송이 {since}부터 모두 실패했습니다.\n\n{endpoint}\n\n' +
    'payhook은 이벤트마다 정해진 일정에 따라 계속 재시도합니다. {disablesAt}에도 엔드포인트가 계속 실패하면 ' +
    'payhook이 엔드포인트를 끄고, 새 이벤트는 보내지 않고 실패로 남깁니다.\n\n' +
    '전송 시도와 엔드포인트 상태는 콘솔에서 확인하세요: {consoleUrl}\n',

  'disabled.subject': 'payhook: {host} 웹훅 엔드포인트가 꺼졌습니다',
  'disabled.text':
    'payhook이 {at}에 {merchant}의 웹훅 엔드포인트를 껐습니다. {since}부터 이 엔드포인트로 보낸 자동 전송이 ' +
    '모두 실패했기 때문입니다.\n\n{endpoint}\n\n' +
    '지금은 이 엔드포인트로 아무것도 보내지 않으며, 이벤트는 실패(endpoint_disabled)로 남겨 둡니다. ' +
    '엔드포인트가 다시 응답하면 콘솔에서 켜고(API로 다시 저장해도 됩니다) 실패한 이벤트를 다시 보내세요: ' +
    '{consoleUrl}\n',

  'recovered.subject': 'payhook: {host} 웹훅이 다시 전달되고 있습니다',
  'recovered.text':
    '{since}부터 실패하던 {merchant}의 웹훅 엔드포인트가 {at}에 다시 응답했습니다.\n\n{endpoint}\n\n' +
    '그동안 실패한 이벤트는 콘솔에서 다시 보낼 수 있습니다: {consoleUrl}\n',
};
