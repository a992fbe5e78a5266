import type { ConsoleEscrowKey } from './en';

/** The console's escrow in Korean: en.ts's keys, in the words of a Korean PG's back office (구매안전서비스, 배송 등록, 구매 확정). */
export const ko: Readonly<Record<ConsoleEscrowKey, string>> = {
  'card.title': '구매안전서비스(에스크로)',
  'card.status': '에스크로 상태',
  'card.carrier': '택배사',
  'card.trackingNumber': '운송장 번호',
  'card.shippedAt': '배송 등록 일시',
  'card.autoConfirmAt': '자동 구매 확정 예정 일시',
  'card.confirmedAt': '구매 확정 일시',
  'card.confirmedBy': '{by, select, auto {자동 확정: 그때까지 고객의 응답이 없었습니다} other {고객이 직접 확정}}',
  'card.rejectedAt': '구매 거절 일시',
  'card.rejectReason': '고객의 거절 사유',

  'note.unpaid': '결제가 완료되면 여기에서 배송 정보를 등록하세요.',
  'note.awaiting':
    '고객이 구매를 확정할 때까지 정산 대금 지급이 보류됩니다. 상품을 발송한 뒤 배송 정보를 등록하면, 고객에게 구매 확정 또는 거절 링크가 담긴 이메일이 발송됩니다.',
  'note.shipped':
    '고객에게 구매 확정 또는 거절 링크를 이메일로 보냈습니다. 응답이 없으면 위의 예정 일시에 자동으로 구매 확정되며, 그때까지 지급이 보류됩니다.',
  'note.confirmed': '구매가 확정되어 지급일이 정해졌습니다(아래 정산 참고).',
  'note.rejected':
    '고객이 구매를 거절했습니다. payhook 운영팀이 건을 검토하는 동안 지급이 계속 보류됩니다. 환불은 다른 완료된 결제와 같이 할 수 있습니다.',

  'form.ship.title': '배송 등록',
  'form.correct.title': '배송 정보 수정',
  'form.correct.hint':
    '택배사와 운송장 번호만 바뀌며, 배송 등록 일시와 자동 구매 확정 예정 일시는 그대로입니다. 고객에게 이메일을 다시 보내지 않습니다.',
  'form.invalid': '배송 정보가 저장되지 않았습니다. 아래 표시된 항목을 수정하세요.',
  'form.carrier': '택배사',
  'form.trackingNumber': '운송장 번호',
  'form.field.hint': '1~{max}자',
  'form.ship.submit': '배송 등록',
  'form.correct.submit': '수정 내용 저장',

  'error.missing': '{field, select, carrier {택배사를 입력하세요.} other {운송장 번호를 입력하세요.}}',
  'error.tooLong': '{field, select, carrier {택배사는} other {운송장 번호는}} 최대 {max}자까지 입력할 수 있습니다.',
  'error.notPrintable':
    '{field, select, carrier {택배사에는} other {운송장 번호에는}} 탭이나 줄바꿈 없이 화면에 표시되는 문자만 입력할 수 있습니다.',
  'error.notCompleted': '완료된 결제만 배송 등록을 할 수 있습니다.',
  'error.noEscrow': '에스크로 없이 결제된 건이라 배송 정보를 등록할 수 없습니다.',
  'error.notOpen':
    '이 에스크로는 더 이상 배송 정보를 받지 않습니다. 고객이 구매를 확정 또는 거절했거나 자동으로 확정되었습니다.',
};
