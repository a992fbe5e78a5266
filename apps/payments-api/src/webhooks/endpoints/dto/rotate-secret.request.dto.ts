import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The longest overlap of a rotated-out secret: 7 days. */
export const MAX_PREVIOUS_SECRET_SECONDS = 604_800;

export class RotateSecretRequestDto {
  /** How long the secret being replaced still signs `webhook-signature` beside the new one. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_PREVIOUS_SECRET_SECONDS,
    default: 0,
    description:
      'Seconds the current secret keeps signing the webhook-signature header beside the new one (0: it stops at once). ' +
      'Service-Signature is signed with the new secret only.',
    example: 86_400,
  })
  @IsOptional()
  @IsInt({ message: `must be a whole number of seconds from 0 to ${MAX_PREVIOUS_SECRET_SECONDS}` })
  @Min(0, { message: `must be a whole number of seconds from 0 to ${MAX_PREVIOUS_SECRET_SECONDS}` })
  @Max(MAX_PREVIOUS_SECRET_SECONDS, {
    message: `must be a whole number of seconds from 0 to ${MAX_PREVIOUS_SECRET_SECONDS}`,
  })
  previousSecretExpiresIn?: number;
}
