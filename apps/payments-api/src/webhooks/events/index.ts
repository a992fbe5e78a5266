// The events feature's door: what the other rooms and the surfaces may use of it.
// Its module and service, for the console's payment and developers pages (a payment's events, redelivery).
export { EventsModule } from './events.module';
export { EventsService } from './events.service';
export { EventException } from './event.exception';
// The events' reads, by which an integration test follows the events it caused.
export { EventsRepository } from './events.repository';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { EVENT_SCHEMAS } from './events.schemas';
