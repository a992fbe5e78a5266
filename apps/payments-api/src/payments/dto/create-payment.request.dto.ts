import { CURRENCY, MAX_AMOUNT, MIN_AMOUNT } from '@payhook/contracts';
import { Equals, IsDefined, IsInt, Matches, Max, Min } from 'class-validator';
import { IsHttpUrl, IsPrintableText } from '../../http/validators';

export const ORDER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
const AMOUNT_RANGE = `must be a whole number of won from ${MIN_AMOUNT} to ${MAX_AMOUNT}`;

/** POST /v1/payments body (DESIGN.md §4); unknown fields are rejected by the pipe. */
export class CreatePaymentRequestDto {
  @IsDefined()
  @Matches(ORDER_ID_PATTERN, { message: 'must be 1 to 64 of A-Z a-z 0-9 _ . : -' })
  orderId!: string;

  @IsDefined()
  @IsPrintableText(128)
  customerId!: string;

  @IsDefined()
  @IsInt({ message: AMOUNT_RANGE })
  @Min(MIN_AMOUNT, { message: AMOUNT_RANGE })
  @Max(MAX_AMOUNT, { message: AMOUNT_RANGE })
  amount!: number;

  @IsDefined()
  @Equals(CURRENCY, { message: `must be "${CURRENCY}"` })
  currency!: typeof CURRENCY;

  @IsDefined()
  @IsHttpUrl()
  returnUrl!: string;
}
