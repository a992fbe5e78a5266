import { BUYER_EMAIL_MAX_CHARS, BUYER_EMAIL_MIN_CHARS } from '@payhook/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, Length } from 'class-validator';

/** Create's `escrow` (구매안전서비스): the payment's money waits until the buyer confirms the goods. */
export class EscrowRequestDto {
  @ApiProperty({
    format: 'email',
    minLength: BUYER_EMAIL_MIN_CHARS,
    maxLength: BUYER_EMAIL_MAX_CHARS,
    example: 'buyer@example.com',
    description: "where the buyer's confirmation link goes at the first shipment; never shown back",
  })
  @IsDefined()
  @Length(BUYER_EMAIL_MIN_CHARS, BUYER_EMAIL_MAX_CHARS, {
    message: `must be an e-mail address of ${BUYER_EMAIL_MIN_CHARS} to ${BUYER_EMAIL_MAX_CHARS} characters`,
  })
  @IsEmail(
    {},
    { message: `must be an e-mail address of ${BUYER_EMAIL_MIN_CHARS} to ${BUYER_EMAIL_MAX_CHARS} characters` },
  )
  buyerEmail!: string;
}
