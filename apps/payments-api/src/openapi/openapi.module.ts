import { Module } from '@nestjs/common';
import { MERCHANT_OPENAPI, OpenApiController } from './openapi.controller';

/** Holds the document app.setup generates once the app exists (generation needs the whole app). */
@Module({
  controllers: [OpenApiController],
  providers: [{ provide: MERCHANT_OPENAPI, useValue: {} }],
  exports: [MERCHANT_OPENAPI],
})
export class OpenApiModule {}
