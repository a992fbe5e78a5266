import { Body, Controller, HttpCode, Post } from '@nestjs/common';

/**
 * `npm run bench` only (PAYHOOK_BENCH_ECHO=1): a bare JSON echo through the same Nest/express
 * stack, middleware and filter as the real routes, to measure the framework's ceiling.
 */
@Controller('bench/echo')
export class EchoController {
  @Post()
  @HttpCode(201)
  echo(@Body() body: unknown): { data: unknown } {
    return { data: body };
  }
}
