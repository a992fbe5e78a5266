import type { TeamKey } from './en';

/** The team pages' Korean: en.ts's keys, in the words of a Korean PG's back office (팀원, 역할, 초대). */
export const ko: Readonly<Record<TeamKey, string>> = {
  'role.name': '{role, select, owner {소유자} developer {개발자} other {조회자}}',
  'role.owner': '소유자: 팀 관리를 포함한 모든 권한',
  'role.developer': '개발자: API 키, 웹훅, 연동 테스트, 결제와 환불',
  'role.viewer': '조회자: 조회만 가능',

  'team.title': '팀',
  'team.members': '팀원',
  'team.email': '이메일',
  'team.role': '역할',
  'team.twoStep': '2단계 인증',
  'team.twoStep.on': '사용',
  'team.twoStep.off': '사용 안 함',
  'team.since': '등록일',
  'team.change': '변경',
  'team.you': '(본인)',
  'team.roleOf': '{email}의 역할',
  'team.changeRole': '역할 변경',
  'team.remove': '{email} 삭제',
  'team.ownersOnly': '팀원 초대, 삭제, 역할 변경은 소유자만 할 수 있습니다.',

  'invites.new': '팀원 초대',
  'invites.make': '초대하기',
  'invites.title': '초대 내역',
  'invites.state': '상태',
  'invites.validUntil': '유효 기한',
  'invites.resend': '{email}에게 초대 다시 보내기',
  'invites.revoke': '{email} 초대 철회',
  'invites.issued.link':
    '{email}({role}) 초대를 만들었습니다. 이 링크를 직접 전달하세요. 링크는 지금만 표시되며 72시간 동안 한 번 사용할 수 있습니다(이 payhook은 이메일 발송이 꺼져 있어 보내지 않았습니다).',
  'invites.issued.emailed':
    '{email}({role}) 주소로 초대를 보냈습니다. 링크는 72시간 동안 한 번 사용할 수 있습니다. 메일이 오지 않으면 아래에서 다시 보내세요.',
  'invites.issued.notSent': '{email}({role}) 초대를 만들었지만 메일 서버가 받지 않았습니다. 아래에서 다시 보내세요.',

  'notice.roleChanged': '역할을 변경했습니다. 해당 팀원이 다음 페이지를 열 때부터 적용됩니다.',
  'notice.removed': '팀원을 삭제했습니다. 모든 기기에서 로그아웃되었습니다.',
  'notice.inviteRevoked': '초대를 철회했습니다. 초대 링크는 더 이상 작동하지 않습니다.',

  'error.inviteRole': '초대할 역할을 선택하세요.',
  'error.role': '역할 중 하나를 선택하세요.',
  'error.inviteEmail': '초대할 사람의 이메일 주소를 입력하세요.',
  'error.alreadyMember': '{email}은(는) 이미 이 팀의 팀원입니다.',
  'error.tooManyInvites': '오늘 이 팀에서 보낸 초대나 이 주소로 간 초대가 너무 많습니다. 내일 다시 시도하세요.',
  'error.inviteNotOpen': '이 초대는 이미 닫혔거나 벌써 3번 다시 보냈습니다. 초대를 철회하고 새로 초대하세요.',
  'error.noOpenInvite': '진행 중인 해당 초대가 없습니다.',
  'error.noMember': '해당 팀원이 없습니다.',
  'error.lastOwnerRole': '마지막 소유자의 역할은 바꿀 수 없습니다. 먼저 다른 팀원을 소유자로 지정하세요.',
  'error.lastOwnerRemove': '마지막 소유자는 삭제할 수 없습니다. 먼저 다른 팀원을 소유자로 지정하세요.',

  'remove.title': '팀원 삭제',
  'remove.heading': '{merchant} 팀에서 {email}을(를) 삭제할까요?',
  'remove.headingSelf': '{merchant} 팀에서 나갈까요?',
  'remove.text':
    '{email}({role})은(는) 모든 기기에서 바로 로그아웃되며, 더 이상 이 가맹점의 콘솔에 로그인할 수 없습니다. 이 팀원이 한 작업은 감사 로그에 그대로 남습니다.',
  'remove.textSelf':
    '모든 기기에서 바로 로그아웃되며, 더 이상 이 가맹점의 콘솔에 로그인할 수 없습니다. 본인이 한 작업은 감사 로그에 그대로 남습니다.',
  'remove.button': '{email} 삭제',
  'remove.buttonSelf': '팀에서 나가기',
  'remove.cancel': '취소',

  'join.title': '팀 초대 수락',
  // 소유자, 개발자, 조회자: every role's name ends in a vowel, so 로 (not 으로).
  'join.text': '{merchant} 팀에 {role}로 초대되었습니다. 로그인 이메일은 {email}입니다.',
  'join.password': '비밀번호({min}~{max}자)',
  'join.passwordAgain': '비밀번호 확인',
  'join.submit': '비밀번호 설정하고 참여하기',
  'join.unusable.title': '사용할 수 없는 초대',
  'join.unusable':
    '이 초대 링크는 이미 사용되었거나, 만료되었거나(링크는 72시간 동안 유효합니다), 알 수 없는 링크입니다. 계정 소유자에게 새 링크를 요청하세요.',
};
