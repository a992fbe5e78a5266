import type { SettlementsKey } from './en';

/** The Settlements page in Korean: en.ts's keys, in the words of a Korean PG's settlement screen (매출일, 지급일, 정산 금액). */
export const ko: Readonly<Record<SettlementsKey, string>> = {
  'page.title': '정산',
  'page.intro':
    '최근 매출일 순으로 표시합니다. 환불은 환불이 완료된 날짜에 음수(−) 금액의 별도 내역으로 기록됩니다. 매출일과 지급일은 {salesZone} 기준 날짜이며, 시각은 {zone} 기준입니다.',

  'filters.label': '검색 조건',
  'filters.date': '매출일',
  'filters.from': '또는 시작일',
  'filters.to': '종료일(포함)',
  'filters.show': '조회',
  'filters.clear': '초기화',

  'list.label': '정산 내역',
  'list.salesDate': '매출일',
  'list.payoutDate': '지급일',
  'list.type': '구분',
  'list.order': '주문번호',
  'list.gross': '거래 금액',
  'list.fee': '수수료',
  'list.vat': '부가세',
  'list.net': '정산 금액',
  'list.time': '결제·환불 일시',
  'list.completed': '결제 일시',
  'list.refunded': '환불 일시',
  'list.type.payment': '결제',
  'list.type.refund': '환불',
  'list.total': '{day} 합계 ({count, plural, other {#건}})',
  'list.totalAllPages': '{day} 합계 ({count, plural, other {#건}}, 전체 페이지)',
  'list.emptyDay': '{day}에 {mode, select, live {라이브} other {테스트}} 정산 내역이 없습니다.',
  'list.empty': '조건에 맞는 {mode, select, live {라이브} other {테스트}} 정산 내역이 없습니다.',
  'list.payoutHeld': '고객이 구매를 확정할 때까지 지급이 보류됩니다(구매안전서비스).',
  'list.heldTotal': '그중 구매 확정 전 지급 보류 ({count, plural, other {#건}})',
  'list.download': 'CSV 다운로드',
  'list.chooseDay': '매출일을 하나 선택하면 그날의 합계를 보고 CSV를 다운로드할 수 있습니다.',
  'list.pages': '페이지',
  'list.firstPage': '첫 페이지',
  'list.nextPage': '다음 페이지',

  'error.dateAndRange': '매출일 또는 기간 중 하나만 선택해 주세요.',
  'error.date': '매출일은 2026-11-21 형식의 날짜로 입력해 주세요.',
  'error.from': '시작일은 2026-11-21 형식의 날짜로 입력해 주세요.',
  'error.to': '종료일은 2026-11-21 형식의 날짜로 입력해 주세요.',
  'error.fromAfterTo': '시작일은 종료일보다 늦을 수 없습니다.',
  'error.badCursor': '더 이상 유효하지 않은 페이지 링크입니다. 첫 페이지부터 다시 조회해 주세요.',
  'error.exportDate': 'CSV를 다운로드하려면 매출일을 선택해 주세요.',
};
