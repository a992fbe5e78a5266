import { CURRENCY, MAX_AMOUNT, MIN_AMOUNT } from '@payhook/contracts';
import { Equals, IsDefined, Matches } from 'class-validator';
import { IsHttpUrl, IsPrintableText, IsWholeWon } from '../../../platform/http/validators';
import { ApiProperty } from '@nestjs/swagger';

/** An order id's rules, here once: the API's bodies and queries and the console's filter use them. */
export const ORDER_ID_MAX_CHARS = 64;
export const ORDER_ID_PATTERN = new RegExp(`^[A-Za-z0-9_.:-]{1,${ORDER_ID_MAX_CHARS}}$`);
/** The pattern in words, for messages. */
export const ORDER_ID_RULE = `1 to ${ORDER_ID_MAX_CHARS} of A-Z a-z 0-9 _ . : -`;
export const CUSTOMER_ID_MAX_CHARS = 128;

/** POST /v1/payments body; unknown fields are rejected by the pipe. */
export class CreatePaymentRequestDto {
  @ApiProperty({ pattern: ORDER_ID_PATTERN.source, example: 'order-1001' })
  @IsDefined()
  @Matches(ORDER_ID_PATTERN, { message: `must be ${ORDER_ID_RULE}` })
  orderId!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: CUSTOMER_ID_MAX_CHARS,
    example: 'customer-7',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(CUSTOMER_ID_MAX_CHARS)
  customerId!: string;

  @ApiProperty({ type: 'integer', minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, example: 15000, description: 'whole KRW' })
  @IsDefined()
  @IsWholeWon(MIN_AMOUNT, MAX_AMOUNT)
  amount!: number;

  @ApiProperty({ enum: [CURRENCY] })
  @IsDefined()
  @Equals(CURRENCY, { message: `must be "${CURRENCY}"` })
  currency!: typeof CURRENCY;

  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://shop.example/orders/1001' })
  @IsDefined()
  @IsHttpUrl()
  returnUrl!: string;
}
