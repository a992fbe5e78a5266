import { All, Controller, UseFilters } from '@nestjs/common';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleException } from './console.exception';

/** Any other /console address: the console's 404 page rather than the API's JSON error. Registered last. */
@Controller('console')
@UseFilters(ConsoleExceptionFilter)
export class ConsoleFallbackController {
  @All('*path')
  notFound(): never {
    throw new ConsoleException('not_found', 'No such console page.');
  }
}
