import { SHIPMENT_FIELD_MAX_CHARS } from '@payhook/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { IsPrintableText } from '../../../platform/http/validators';

/** POST /v1/payments/{id}/escrow/shipment: the goods are on their way (again while shipped: a correction). */
export class ShipmentRequestDto {
  @ApiProperty({
    minLength: 1,
    maxLength: SHIPMENT_FIELD_MAX_CHARS,
    example: 'CJ대한통운',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(SHIPMENT_FIELD_MAX_CHARS)
  carrier!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: SHIPMENT_FIELD_MAX_CHARS,
    example: '6901-2345-6789',
    description: 'printable Unicode',
  })
  @IsDefined()
  @IsPrintableText(SHIPMENT_FIELD_MAX_CHARS)
  trackingNumber!: string;
}
