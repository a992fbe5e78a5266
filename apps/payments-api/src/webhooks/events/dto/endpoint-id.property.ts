import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

/** An optional `endpointId` (we_…) naming one of the mode's webhook endpoints. */
export const OptionalEndpointId = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ pattern: '^we_[0-9A-Za-z]{20,64}$', description }),
    IsOptional(),
    IsString(),
    Matches(/^we_[0-9A-Za-z]{20,64}$/, { message: 'must be a webhook endpoint id (we_…)' }),
  );
