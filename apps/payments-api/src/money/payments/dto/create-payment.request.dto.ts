import {
  CURRENCY,
  MAX_AMOUNT,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_CHARS,
  MIN_AMOUNT,
  type Metadata,
} from '@payhook/contracts';
import { Type } from 'class-transformer';
import { Equals, IsDefined, IsObject, Matches, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { CashReceiptRequestDto } from '../../cash-receipts/dto/cash-receipt-request.dto';
import { EscrowRequestDto } from '../../escrow/dto/escrow-request.dto';
import { IsHttpUrl, IsPrintableText, IsWholeWon } from '../../../platform/http/validators';
import { IsMetadata, METADATA_RULE } from '../../../platform/http/metadata';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An order id's rules, here once: the API's bodies and queries and the console's filter use them. */
export const ORDER_ID_MAX_CHARS = 64;
export const ORDER_ID_PATTERN = new RegExp(`^[A-Za-z0-9_.:-]{1,${ORDER_ID_MAX_CHARS}}$`);
/** The pattern in words, for messages. */
export const ORDER_ID_RULE = `1 to ${ORDER_ID_MAX_CHARS} of A-Z a-z 0-9 _ . : -`;
export const CUSTOMER_ID_MAX_CHARS = 128;

/**
 * Omitted means the key is absent: an explicit null is validated like any other value (and refused),
 * never taken for the default.
 */
const IsOmittable = () => ValidateIf((_, value: unknown) => value !== undefined);

/** At most the body's amount (when the amount itself is valid, its own violation comes first). */
const IsAtMostAmount = () =>
  ValidateBy({
    name: 'isAtMostAmount',
    validator: {
      validate: (value: unknown, args) => {
        const amount = (args?.object as { amount?: unknown }).amount;
        return typeof amount !== 'number' || typeof value !== 'number' || value <= amount;
      },
      defaultMessage: () => 'must not be more than amount',
    },
  });

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

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_AMOUNT,
    default: 0,
    example: 3000,
    description: 'whole KRW, 0 to amount: the part exempt from VAT (면세), such as books or fresh food',
  })
  @IsOmittable()
  @IsWholeWon(0, MAX_AMOUNT)
  @IsAtMostAmount()
  taxFreeAmount?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: METADATA_VALUE_MAX_CHARS },
    maxProperties: METADATA_MAX_KEYS,
    default: {},
    example: { cartId: 'cart-5521', channel: '모바일' },
    description: `your own keys, shown on the payment's reads: ${METADATA_RULE}`,
  })
  @IsOmittable()
  @IsMetadata()
  metadata?: Metadata;

  @ApiPropertyOptional({
    type: () => CashReceiptRequestDto,
    description:
      'a cash receipt (현금영수증) asked for by the buyer: made when the payment completes; the number is never shown back whole',
  })
  @IsOmittable()
  // ValidateNested alone accepts an array (its items validated instead): an object is required here.
  @IsObject({ message: 'must be an object {type, identityNumber}' })
  @ValidateNested()
  @Type(() => CashReceiptRequestDto)
  cashReceipt?: CashReceiptRequestDto;

  @ApiPropertyOptional({
    type: () => EscrowRequestDto,
    description:
      "escrow (구매안전서비스): the payout waits until the buyer confirms the goods arrived; the buyer's address is never shown back",
  })
  @IsOmittable()
  @IsObject({ message: 'must be an object {buyerEmail}' })
  @ValidateNested()
  @Type(() => EscrowRequestDto)
  escrow?: EscrowRequestDto;
}
