import { applyDecorators } from '@nestjs/common';
import type { EventType } from '@payhook/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { IsHttpUrl, IsPrintableText } from '../../../platform/http/validators';
import { EnabledEvents, EndpointUrl } from './put-webhook-endpoint.request.dto';

/** An endpoint's description, one line: owners read it in e-mails about the endpoint. */
export const ENDPOINT_DESCRIPTION_MAX_CHARS = 200;

/** What the endpoint is for, shown in the console: 1–200 printable characters; null clears it (PATCH). */
const Description = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      nullable: true,
      minLength: 1,
      maxLength: ENDPOINT_DESCRIPTION_MAX_CHARS,
      example: 'accounting system',
    }),
    ValidateIf((_, value: unknown) => value !== undefined && value !== null),
    IsPrintableText(ENDPOINT_DESCRIPTION_MAX_CHARS),
  );

/** POST /v1/webhook-endpoints. */
export class CreateWebhookEndpointRequestDto {
  @EndpointUrl()
  url!: string;

  @EnabledEvents('default ["payment.completed"]')
  enabledEvents?: EventType[];

  @Description()
  description?: string | null;
}

/** PATCH /v1/webhook-endpoints/{id}: the fields given change; the endpoint is enabled again. */
export class UpdateWebhookEndpointRequestDto {
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, example: 'https://shop.example/webhooks' })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsHttpUrl()
  url?: string;

  @EnabledEvents('left out, the endpoint keeps its own')
  enabledEvents?: EventType[];

  @Description()
  description?: string | null;
}
