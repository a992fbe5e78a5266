import { CURRENCY, MAX_AMOUNT, MIN_AMOUNT } from '@payhook/contracts';
import { Equals, IsDefined, Matches } from 'class-validator';
import { IsHttpUrl, IsPrintableText, IsWholeWon } from '../../http/validators';

export const ORDER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** POST /v1/payments body (DESIGN.md §4); unknown fields are rejected by the pipe. */
export class CreatePaymentRequestDto {
  @IsDefined()
  @Matches(ORDER_ID_PATTERN, { message: 'must be 1 to 64 of A-Z a-z 0-9 _ . : -' })
  orderId!: string;

  @IsDefined()
  @IsPrintableText(128)
  customerId!: string;

  @IsDefined()
  @IsWholeWon(MIN_AMOUNT, MAX_AMOUNT)
  amount!: number;

  @IsDefined()
  @Equals(CURRENCY, { message: `must be "${CURRENCY}"` })
  currency!: typeof CURRENCY;

  @IsDefined()
  @IsHttpUrl()
  returnUrl!: string;
}
