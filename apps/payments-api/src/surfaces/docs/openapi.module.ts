import { Module } from '@nestjs/common';
import { OPENAPI_DOCUMENTS, OpenApiController } from './openapi.controller';
import { AuthThrottleModule } from '../../accounts/auth-throttle';

/** Holds the documents app.setup generates once the app exists (generation needs the whole app). */
@Module({
  imports: [AuthThrottleModule],
  controllers: [OpenApiController],
  providers: [{ provide: OPENAPI_DOCUMENTS, useValue: {} }],
  exports: [OPENAPI_DOCUMENTS],
})
export class OpenApiModule {}
