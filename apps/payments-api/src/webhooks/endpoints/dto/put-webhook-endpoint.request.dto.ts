import { applyDecorators } from '@nestjs/common';
import { EVENT_TYPES, type EventType } from '@payhook/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional } from 'class-validator';
import { IsHttpUrl } from '../../../platform/http/validators';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const EVENTS_MESSAGE = `must be a non-empty array of event types: ${EVENT_TYPES.join(', ')}`;

/** An endpoint's `url`: absolute http(s), at most 2,048 characters. */
export const EndpointUrl = () =>
  applyDecorators(
    ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://shop.example/webhooks' }),
    IsDefined(),
    IsHttpUrl(),
  );

/** Which event types are sent; the others are recorded `skipped`. Optional. */
export const EnabledEvents = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'array', items: { enum: [...EVENT_TYPES] }, description }),
    IsOptional(),
    IsArray({ message: EVENTS_MESSAGE }),
    ArrayMinSize(1, { message: EVENTS_MESSAGE }),
    ArrayMaxSize(EVENT_TYPES.length * 4, { message: EVENTS_MESSAGE }),
    IsIn(EVENT_TYPES, { each: true, message: EVENTS_MESSAGE }),
  );

export class PutWebhookEndpointRequestDto {
  @EndpointUrl()
  url!: string;

  @EnabledEvents('default ["payment.completed"]; left out, an existing endpoint keeps its own')
  enabledEvents?: EventType[];
}
