import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';

/**
 * `npm run bench` only (bench/echo-main.ts adds it): a bare JSON echo through the same Nest/express
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

/** The echo route as a module the bench's entry adds to the app. */
@Module({ controllers: [EchoController] })
export class EchoModule {}
