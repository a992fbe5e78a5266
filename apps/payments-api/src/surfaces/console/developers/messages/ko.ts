import type { DevelopersKey } from './en';

/**
 * The console's Developers pages in Korean, in the words of a Korean PG's developer settings (웹훅,
 * 엔드포인트, 서명 시크릿, 연동 테스트, API 키). The scenarios' details are the runner's English, as
 * the API returns them: the page marks them `lang="en"`.
 */
export const ko: Readonly<Record<DevelopersKey, string>> = {
  'page.title': '개발자',
  'page.zone': '시간은 {zone} 기준입니다.',
  cancel: '취소',

  'goLive.heading': '라이브 전환',
  'goLive.status.review': 'payhook에서 계정을 심사하고 있습니다.',
  'goLive.status.integrating':
    '승인되었습니다. 테스트 웹훅 엔드포인트를 가맹점 서버로 지정하고 연동 테스트를 실행하세요. 테스트를 통과하면 라이브 모드가 열립니다.',
  'goLive.status.live': '라이브 모드입니다. 연동 테스트를 통과해 라이브 키를 사용할 수 있습니다.',
  'goLive.run': '연동 테스트 실행',
  'goLive.check': '결과 확인',
  'goLive.none': '아직 실행한 연동 테스트가 없습니다.',
  'run.label': '연동 테스트 {id}',
  'run.times': '시작 {started} · 종료 {finished}',
  'run.scenarios': '{id}의 시나리오',
  'run.scenario': '시나리오',
  'run.status': '상태',
  'run.detail': '상세 내용',
  'run.scenario.completion': '결제 완료 전달',
  'run.scenario.retries': '재전송',
  'run.scenario.duplicates': '동시 중복 전달',
  'run.scenario.review': '위조 요청 거부',

  'webhooks.heading': '웹훅 엔드포인트',
  'endpoint.label': '{mode, select, live {라이브} other {테스트}} 웹훅 엔드포인트',
  'endpoint.labelNamed': '{mode, select, live {라이브} other {테스트}} 웹훅 엔드포인트 {name}',
  'endpoint.heading': '{mode, select, live {라이브} other {테스트}} 모드',
  'endpoint.sends': '{url} 주소로 {events} 이벤트를 보냅니다.',
  'endpoint.sendsOthersSkipped': '{url} 주소로 {events} 이벤트를 보냅니다. 다른 이벤트는 건너뜀으로 기록됩니다.',
  'endpoint.none': '설정된 엔드포인트가 없습니다.',
  'endpoint.urlLabel': '{mode, select, live {라이브} other {테스트}} 웹훅 URL',
  'endpoint.save': '엔드포인트 저장',
  'endpoint.events': '보낼 이벤트',
  'endpoint.previousSecret': '{time}까지는 이전 시크릿도 {header} 헤더에 함께 서명합니다.',
  'endpoint.rotate': '서명 시크릿 교체…',
  'endpoint.enable': '켜기',
  'endpoint.disable': '끄기',
  'endpoint.delete': '삭제…',
  'endpoint.edit': '엔드포인트 수정',
  'endpoint.url': 'URL',
  'endpoint.description': '설명',
  'endpoint.saveAndEnable': '저장 후 켜기',
  'endpoint.limit': '이 모드의 엔드포인트가 최대 개수인 {max}개에 도달했습니다.',
  'endpoint.add': '{mode, select, live {라이브} other {테스트}} 엔드포인트 추가',
  'endpoint.addButton': '엔드포인트 추가',
  liveLocked: '연동 테스트를 통과하면 라이브 모드가 열립니다.',

  'health.receiving': '이벤트를 받고 있습니다.',
  'health.failingSince': '{time}부터 실패하고 있습니다. 자동 전송이 연속 {count, plural, other {#번}} 실패했습니다.',
  'health.lastError': '마지막 오류: {error}',
  'health.disablesAt': '{time}에도 계속 실패하면 payhook이 이 엔드포인트를 끕니다.',
  'health.disabledNothingSent':
    '{time}에 꺼졌습니다. 이 엔드포인트로는 아무것도 보내지 않으며, 이벤트는 실패로 남습니다.',
  'health.disabledFailing': '{time}에 꺼졌습니다. {since}부터 자동 전송이 계속 실패했습니다.',
  'health.disabledByHand': '{time}에 수동으로 꺼졌습니다.',
  'health.keptFailed': '새 이벤트는 보내지 않고 실패로 남깁니다.',
  'health.reenable': '엔드포인트 다시 켜기',
  'recover.label': '다시 보낼 실패 이벤트',
  'recover.period': '{days, plural, =1 {최근 24시간} other {최근 #일}}',
  'recover.send': '실패 이벤트 다시 보내기',

  'secret.reveal': '서명 시크릿 보기',
  'secret.forViewers': '서명 시크릿은 개발자와 소유자에게만 보입니다.',

  'keys.heading': 'API 키',
  'keys.none': '아직 API 키가 없습니다.',
  'keys.mode': '모드',
  'keys.key': '키',
  'keys.created': '발급 일시',
  'keys.lastUsed': '마지막 사용',
  'keys.state': '상태',
  'keys.change': '변경',
  'keys.modeName': '{mode, select, live {라이브} other {테스트}}',
  'keys.never': '없음',
  'keys.revoked': '{time}에 철회됨',
  'keys.expired': '{time}에 만료됨',
  'keys.worksUntil': '{time}까지 사용 가능',
  'keys.active': '사용 중',
  'keys.overlap': '기존 키 유지 기간',
  'keys.overlapDays': '{days, plural, =0 {유지 안 함: 지금 바로 중지} other {#일}}',
  'keys.roll': '키 …{last4} 재발급',
  'keys.revoke': '키 …{last4} 즉시 철회',
  'keys.issued':
    '새 {mode, select, live {라이브} other {테스트}} 키입니다. 지금 복사해 두세요. 이번 한 번만 보여 드립니다.',
  'keys.newMode': '새 키의 모드',
  'keys.create': '키 발급',
  'keys.note':
    '키 전체는 발급할 때 한 번만 보입니다. 마지막 사용 시각은 분 단위로 기록됩니다. 철회되거나 만료된 키는 5초 안에 사용이 중지됩니다.',
  'keys.liveLocked': '연동 테스트를 통과하면 라이브 키를 발급할 수 있습니다.',

  'rotate.title': '서명 시크릿 교체',
  'rotate.heading': '{mode, select, live {라이브} other {테스트}} 서명 시크릿을 교체할까요?',
  'rotate.text':
    '지금부터 모든 {mode, select, live {라이브} other {테스트}} 웹훅은 이전 이벤트의 재시도까지 포함해 새 시크릿으로 서명됩니다. 유예 기간에는 현재 시크릿도 {header} 헤더에 함께 서명하므로, 아직 현재 시크릿으로 검증하는 수신 서버도 계속 검증할 수 있습니다. {serviceHeader} 헤더는 새 시크릿으로만 서명합니다.',
  'rotate.overlap': '현재 시크릿 유예 기간',
  'rotate.overlap.none': '없음: 현재 시크릿을 바로 중지',
  'rotate.overlap.hour': '1시간',
  'rotate.overlap.day': '24시간',
  'rotate.overlap.week': '7일',
  'rotate.confirm': '시크릿 교체',
  'endpointRotate.heading': '{name} 엔드포인트의 서명 시크릿을 교체할까요?',
  'endpointRotate.text':
    '지금부터 {url} 주소로 보내는 모든 웹훅은 새 시크릿으로 서명됩니다. 유예 기간에는 현재 시크릿도 {header} 헤더에 함께 서명합니다.',
  'endpointDelete.title': '엔드포인트 삭제',
  'endpointDelete.heading': '{name} 엔드포인트를 삭제할까요?',
  'endpointDelete.text':
    '{url} 주소로는 더 이상 아무것도 보내지 않으며, 아직 보내지 못한 이벤트는 실패({code})로 남습니다. 지난 전송 기록은 이벤트 이력에 그대로 남습니다.',

  'notice.urlSaved': '웹훅 URL을 저장했습니다. 지금부터 이벤트를 받으며, 이전 이벤트를 다시 보내지는 않습니다.',
  'notice.secretRotated': '서명 시크릿을 교체했습니다. 지금부터 모든 웹훅은 새 시크릿으로 서명됩니다.',
  'notice.testStarted': '연동 테스트를 시작했습니다. 끝나면 아래에서 결과를 확인하세요.',
  'notice.endpointEnabled': '웹훅 엔드포인트를 다시 켰습니다. 실패한 이벤트는 아래 버튼으로 다시 보내세요.',
  'notice.endpointAdded':
    '웹훅 엔드포인트를 추가했습니다. 전용 서명 시크릿이 발급되었으며, 지금부터 이벤트를 받습니다.',
  'notice.endpointSaved': '웹훅 엔드포인트를 저장하고 켰습니다.',
  'notice.endpointDisabled': '웹훅 엔드포인트를 껐습니다. 다시 켤 때까지 아무것도 보내지 않습니다.',
  'notice.endpointDeleted': '웹훅 엔드포인트를 삭제했습니다.',
  'notice.keyRevoked': 'API 키를 철회했습니다. 5초 안에 사용이 중지됩니다.',
  'notice.keyRolled':
    '{days, plural, =0 {키를 재발급했습니다. 기존 키는 바로 중지되었습니다.} other {키를 재발급했습니다. 기존 키는 #일 동안 더 쓸 수 있고, 그 뒤 중지됩니다.}}',
  'notice.recovered':
    '실패한 {mode, select, live {라이브} other {테스트}} 이벤트 {count, plural, other {#건}}을 다시 보내도록 대기열에 넣었습니다. 오래된 이벤트부터 보냅니다.',

  'error.noEndpoint': '{mode, select, live {라이브} other {테스트}} 웹훅 엔드포인트가 설정되어 있지 않습니다.',
  'error.recoverPeriod': '다시 보낼 기간을 고르세요.',
  'error.keyMode': '테스트 또는 라이브를 고르세요.',
  'error.rollOverlap': '기존 키 유지 기간을 0~7일 중에서 고르세요.',

  'refused.url': 'URL은 공백 없는 HTTP 또는 HTTPS 절대 주소여야 하며, 최대 {max, number}자까지 입력할 수 있습니다.',
  'refused.events': '보낼 이벤트 유형을 하나 이상 고르세요: {types}',
  'refused.description': '설명은 출력 가능한 문자로 된 한 줄이어야 하며, 최대 {max}자까지 입력할 수 있습니다.',
  'refused.urlCredentials': 'URL에 사용자 이름이나 비밀번호를 넣을 수 없습니다. 웹훅은 서명으로 인증하세요.',
  'refused.urlHttps': '라이브 모드의 URL은 HTTPS를 사용해야 합니다.',
  'refused.urlPrivate': 'URL은 루프백, 사설 또는 링크 로컬 주소를 가리킬 수 없습니다.',
  'refused.urlLength':
    'URL은 인코딩한 뒤의 길이(한글 등은 퍼센트 인코딩)로 최대 {max, number}자까지 입력할 수 있습니다.',
  'refused.endpointLimit': '한 모드에는 웹훅 엔드포인트를 최대 {max}개까지 둘 수 있습니다. 먼저 하나를 삭제하세요.',
  'refused.noSuchEndpoint': '해당 웹훅 엔드포인트가 없습니다: {id}',
  'refused.urlFirst':
    '먼저 {mode, select, live {라이브} other {테스트}} 웹훅 URL을 설정하세요. 서명 시크릿은 그때 만들어집니다.',
  'refused.recoverRunning':
    '이 가맹점과 모드의 다시 보내기가 이미 진행 중입니다. 해당 이벤트를 모두 보낸 뒤 다시 시도하세요.',
  'refused.keyLimit':
    '{mode, select, live {라이브} other {테스트}} 모드의 활성 키는 최대 10개까지 둘 수 있습니다(재발급한 기존 키도 유지 기간에는 포함됩니다). 먼저 하나를 철회하세요.',
  'refused.keyNotRollable': '재발급할 수 없는 API 키입니다(이미 재발급했거나 사용 중이 아님): {id}',
  'refused.noSuchKey': '사용 중인 API 키가 아닙니다: {id}',
};
