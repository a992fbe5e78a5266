import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

export const MERCHANT_OPENAPI = Symbol('MERCHANT_OPENAPI');

/** The reference, without auth: it describes the API, it holds nothing of anyone's. */
@ApiExcludeController()
@Controller('v1/openapi.json')
export class OpenApiController {
  constructor(@Inject(MERCHANT_OPENAPI) private readonly document: { current?: OpenAPIObject }) {}

  @Get()
  get(): OpenAPIObject | undefined {
    return this.document.current;
  }
}
