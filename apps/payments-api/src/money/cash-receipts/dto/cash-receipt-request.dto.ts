import { CASH_RECEIPT_TYPES, type CashReceiptType } from '@payhook/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, ValidateBy } from 'class-validator';
import { IDENTITY_NUMBER_RULES, validIdentityNumber } from '../identity-number';

/** A number the request's `type` takes (when the type itself is valid, its own violation comes first). */
const IsIdentityNumberOfType = () =>
  ValidateBy({
    name: 'isIdentityNumberOfType',
    validator: {
      validate: (value: unknown, args) => {
        const type = (args?.object as { type?: unknown }).type;
        if (!(CASH_RECEIPT_TYPES as readonly unknown[]).includes(type)) return true;
        return validIdentityNumber(type as CashReceiptType, value) !== null;
      },
      defaultMessage: (args) => {
        const type = (args?.object as { type?: CashReceiptType }).type;
        return `must be ${type ? IDENTITY_NUMBER_RULES[type] : 'a number'}; hyphens and spaces are ignored`;
      },
    },
  });

/**
 * A buyer's request for a cash receipt (현금영수증): POST /v1/payments/{id}/cash-receipts, and
 * create's `cashReceipt`. Unknown fields are rejected by the pipe.
 */
export class CashReceiptRequestDto {
  @ApiProperty({
    enum: CASH_RECEIPT_TYPES,
    example: 'income_deduction',
    description: 'income_deduction (소득공제, a person) or expense_proof (지출증빙, a business)',
  })
  @IsDefined()
  @IsIn(CASH_RECEIPT_TYPES, { message: `must be one of ${CASH_RECEIPT_TYPES.join(', ')}` })
  type!: CashReceiptType;

  @ApiProperty({
    example: '010-1234-5678',
    description:
      `income_deduction: ${IDENTITY_NUMBER_RULES.income_deduction}; expense_proof: ${IDENTITY_NUMBER_RULES.expense_proof}. ` +
      'Hyphens and spaces are ignored. Shown back masked, every digit but the last four as *.',
  })
  @IsDefined()
  @IsIdentityNumberOfType()
  identityNumber!: string;
}
