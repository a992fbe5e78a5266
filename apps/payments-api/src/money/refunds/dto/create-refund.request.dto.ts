import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { METADATA_MAX_KEYS, METADATA_VALUE_MAX_CHARS, type Metadata } from '@payhook/contracts';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateIf, ValidateNested } from 'class-validator';
import { IsMetadata, METADATA_RULE } from '../../../platform/http/metadata';
import { IsPrintableText, IsWholeWon } from '../../../platform/http/validators';

/** A refund's limits, here once: the API's body and the console's refund form are both checked by them. */
export const MIN_REFUND_AMOUNT = 1;
export const REFUND_REASON_MAX_CHARS = 200;
export const REFUND_ACCOUNT_FIELD_MAX_CHARS = 64;

/** Where a live refund's money goes; stored sealed, never echoed to the merchant. */
export class RefundAccountDto {
  @ApiProperty({
    minLength: 1,
    maxLength: REFUND_ACCOUNT_FIELD_MAX_CHARS,
    example: 'KB Kookmin',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(REFUND_ACCOUNT_FIELD_MAX_CHARS)
  bank!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: REFUND_ACCOUNT_FIELD_MAX_CHARS,
    example: '123-456-789012',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(REFUND_ACCOUNT_FIELD_MAX_CHARS)
  accountNumber!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: REFUND_ACCOUNT_FIELD_MAX_CHARS,
    example: 'Hong Gildong',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(REFUND_ACCOUNT_FIELD_MAX_CHARS)
  holderName!: string;
}

/**
 * Omitted means the key is absent: an explicit null is validated like any other value (and refused),
 * so `{"amount": null}` never turns into "the whole remainder".
 */
export const IsOmittable = () => ValidateIf((_, value: unknown) => value !== undefined);

/** A refund's tax-free part as the OpenAPI document describes it (the merchant guide, Refunds and the VAT split). */
export const REFUND_TAX_FREE_PROPERTY: ApiPropertyOptions = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  example: 1000,
  description:
    "whole KRW: the refund's part exempt from VAT (면세), from 0 to its amount, at most the payment's tax-free " +
    'amount not yet refunded, and leaving a taxable part (amount − taxFreeAmount) of at most the taxable amount ' +
    'not yet refunded ("not yet refunded": less succeeded and pending refunds); else 400 parameter_invalid. ' +
    "Omitted: ⌊amount × F / A⌋, with A and F the payment's amount and tax-free amount not yet refunded",
};

/** A refund's metadata as the OpenAPI document describes it. */
export const REFUND_METADATA_PROPERTY: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: METADATA_VALUE_MAX_CHARS },
  maxProperties: METADATA_MAX_KEYS,
  default: {},
  example: { returnId: 'ret-7781', note: '파손 교환' },
  description: `your own keys, shown on the refund's reads: ${METADATA_RULE}`,
};

/** POST /v1/payments/{id}/refunds body; unknown fields are rejected by the pipe. */
export class CreateRefundRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_REFUND_AMOUNT,
    maximum: Number.MAX_SAFE_INTEGER,
    example: 5000,
    description:
      'whole KRW, at most the refundable remainder (more: 409 refund_amount_exceeded); omitted: the whole remainder',
  })
  @IsOmittable()
  // Only the JSON number range is checked here: whether the amount fits is the remainder's question (409).
  @IsWholeWon(MIN_REFUND_AMOUNT, Number.MAX_SAFE_INTEGER)
  amount?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: REFUND_REASON_MAX_CHARS, example: 'customer returned the item' })
  @IsOmittable()
  @IsPrintableText(REFUND_REASON_MAX_CHARS)
  reason?: string;

  @ApiPropertyOptional(REFUND_TAX_FREE_PROPERTY)
  @IsOmittable()
  // Whole won here; whether it fits the refund and the payment is the ledger's question, under the row lock.
  @IsWholeWon(0, Number.MAX_SAFE_INTEGER)
  taxFreeAmount?: number;

  @ApiPropertyOptional(REFUND_METADATA_PROPERTY)
  @IsOmittable()
  @IsMetadata()
  metadata?: Metadata;

  @ApiPropertyOptional({ type: () => RefundAccountDto, description: 'required for live refunds' })
  @IsOmittable()
  // ValidateNested alone accepts an array (its items validated instead): an object is required here.
  @IsObject({ message: 'must be an object {bank, accountNumber, holderName}' })
  @ValidateNested()
  @Type(() => RefundAccountDto)
  refundAccount?: RefundAccountDto;
}
