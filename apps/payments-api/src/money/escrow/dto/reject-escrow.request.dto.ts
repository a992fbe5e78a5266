import { REJECT_REASON_MAX_CHARS } from '@payhook/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, ValidateBy } from 'class-validator';

/**
 * 1 to REJECT_REASON_MAX_CHARS characters (code points), not only white space: line breaks are
 * allowed (the buyer's page takes a paragraph), other control and format characters are not.
 */
export function isRejectReason(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.trim() !== '' &&
    [...value].length <= REJECT_REASON_MAX_CHARS &&
    !/[^\P{C}\n\r\t]/u.test(value)
  );
}

export const REJECT_REASON_RULE = `1 to ${REJECT_REASON_MAX_CHARS} characters, not only spaces`;

/** POST /v1/test-helpers/payments/{id}/escrow/reject: as the buyer would on the buyer's page. */
export class RejectEscrowRequestDto {
  @ApiProperty({ minLength: 1, maxLength: REJECT_REASON_MAX_CHARS, example: '상품이 파손되어 도착했습니다.' })
  @IsDefined()
  @ValidateBy({
    name: 'isRejectReason',
    validator: { validate: isRejectReason, defaultMessage: () => `must be ${REJECT_REASON_RULE}` },
  })
  reason!: string;
}
