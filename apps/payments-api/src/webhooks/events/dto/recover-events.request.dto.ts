import { IsDefined } from 'class-validator';
import { IsInstantInLastDays } from '../../../platform/http/validators';
import { ApiProperty } from '@nestjs/swagger';
import { OptionalEndpointId } from './endpoint-id.property';

/** How far back a recover may reach. */
export const RECOVER_MAX_DAYS = 30;

/** POST /v1/events/recover: send again every failed delivery of an event created since `since`. */
export class RecoverEventsRequestDto {
  @ApiProperty({ format: 'date-time', description: `an instant within the last ${RECOVER_MAX_DAYS} days` })
  @IsDefined()
  @IsInstantInLastDays(RECOVER_MAX_DAYS)
  since!: string;

  @OptionalEndpointId("only this endpoint's failed deliveries")
  endpointId?: string;
}
