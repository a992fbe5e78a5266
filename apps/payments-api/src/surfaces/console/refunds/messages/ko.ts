import type { ConsoleRefundsKey } from './en';

/** The console's refund pages in Korean: en.ts's keys, in the words of a Korean PG's back office. */
export const ko: Readonly<Record<ConsoleRefundsKey, string>> = {
  'card.title': '환불',
  'card.none': '환불 내역이 없습니다.',
  'card.list': '이 결제의 환불 내역(최신순)',
  'card.remainder': '결제 금액 {amount} 중 {left} 환불 가능',
  'card.remainderCounts': '(완료되었거나 대기 중인 환불 금액은 제외됩니다)',
  'refund.id': '환불 ID',
  'refund.reason': '사유',
  'refund.created': '요청 일시',
  'refund.succeeded': '완료 일시',
  'refund.failed': '실패 일시',

  'history.requested': '{amount} 환불 요청({id})',
  'history.succeeded': '{amount} 환불 완료',
  'history.failed': '{amount} 환불 실패',

  'form.title': '이 결제 환불하기',
  'form.invalid': '환불되지 않았습니다. 아래 표시된 항목을 수정하세요.',
  'form.amount': '환불 금액(원)',
  'form.amount.hint': '아직 환불되지 않은 {amount}까지 환불할 수 있습니다.',
  'form.reason': '환불 사유(선택)',
  'form.reason.hint': '환불 내역에 저장되고 웹훅으로 전송됩니다. 최대 {max}자까지 입력할 수 있습니다.',
  'form.account': '환불 계좌(라이브 환불 시 필수)',
  'form.bank': '은행',
  'form.accountNumber': '계좌번호',
  'form.holderName': '예금주',
  'form.review': '환불 내용 확인',

  'error.amountMissing': '환불 금액을 입력하세요.',
  'error.wholeWon': '환불 금액은 15000처럼 원 단위 숫자로 입력하세요.',
  'error.amountMin': '{min} 이상의 금액을 입력하세요.',
  'error.amountExceeded': '환불 가능한 금액을 넘었습니다. 최대 {left}까지 환불할 수 있습니다.',
  'error.nothingLeft': '이 결제에는 더 환불할 금액이 없습니다.',
  'error.reason': '환불 사유는 제어 문자 없이 최대 {max}자까지 입력할 수 있습니다.',
  'error.accountMissing':
    '{field, select, bank {은행을} accountNumber {계좌번호를} other {예금주를}} 입력하세요. 라이브 환불 금액은 이 계좌로 보내 드립니다.',
  'error.accountTooLong':
    '{field, select, bank {은행은} accountNumber {계좌번호는} other {예금주는}} 최대 {max}자까지 입력할 수 있습니다.',
  'error.notCompleted': '완료된 결제만 환불할 수 있습니다.',
  'error.keyReused': '이 확인 화면은 이미 다른 환불에 사용되었습니다. 환불 내용을 다시 확인하세요.',

  'confirm.title': '{order} 환불',
  'confirm.back': '← 결제 상세',
  'confirm.heading': '결제 {payment}(주문번호 {order})에서 {amount}을 환불하시겠습니까?',
  'confirm.refund': '환불 금액',
  'confirm.payment': '결제 금액',
  'confirm.paymentValue': '{amount} (환불 가능 금액 {left})',
  'confirm.leftAfter': '환불 후 남는 금액',
  'confirm.reason': '사유',
  'confirm.noReason': '없음',
  'confirm.mode': '모드',
  'confirm.modeValue': '{mode, select, live {라이브} other {테스트}}',
  'confirm.paidInto': '환불 계좌',
  'confirm.account': '{bank} {number} (예금주 {holder})',
  'confirm.live':
    'payhook이 이 계좌로 {amount}을 보낼 때까지 환불은 대기 상태로 남습니다. 송금되면 결제 상세 화면에 표시됩니다.',
  'confirm.test': '테스트 모드에서는 환불이 바로 완료되며, 실제 돈은 오가지 않습니다.',
  'confirm.submit': '환불하기',
  'confirm.edit': '수정',
};
