import { All } from '@nestjs/common';
import { ConsoleController } from './console-controller.decorator';
import { ConsoleException } from './console.exception';

/** Any other /console address: the console's 404 page rather than the API's JSON error. Registered last. */
@ConsoleController('console')
export class ConsoleFallbackController {
  @All('*path')
  notFound(): never {
    throw new ConsoleException('not_found', 'No such console page.');
  }
}
