import type { ConsoleCashReceiptsKey } from './en';

/** The console's cash receipts in Korean: en.ts's keys, in the words of a Korean PG's back office. */
export const ko: Readonly<Record<ConsoleCashReceiptsKey, string>> = {
  'card.title': '현금영수증',
  'card.none': '현금영수증 내역이 없습니다.',
  'card.list': '이 결제의 현금영수증 내역(최신순)',

  'receipt.heading': '{transaction, select, cancel {취소} other {발급}} · {amount}',
  'receipt.id': '현금영수증 ID',
  'receipt.refund': '관련 환불',
  'receipt.type': '용도',
  'receipt.type.income_deduction': '소득공제',
  'receipt.type.expense_proof': '지출증빙',
  'receipt.identity': '고객 식별 번호',
  'receipt.selfIssued': '자진발급',
  'receipt.selfIssued.hint': '의무발행업종이므로 고객의 요청 없이 국세청 지정 번호로 발급했습니다.',
  'receipt.taxFree': '면세 금액',
  'receipt.vat': '부가세',
  'receipt.supplied': '공급가액',
  'receipt.issueNumber': '승인번호',
  'receipt.waiting': '국세청의 발급 결과를 기다리고 있습니다.',
  'receipt.failure': '실패 사유',
  'receipt.failure.identity_rejected': '국세청이 고객 식별 번호를 거부했습니다.',
  'receipt.created': '생성 일시',
  'receipt.issued': '발급 일시',
  'receipt.failed': '실패 일시',
};
