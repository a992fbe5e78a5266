import type { EventType } from '@payhook/contracts';
import { EnabledEvents } from '../../endpoints';

/** POST /v1/listen-sessions (`payhook listen`). The body may be empty. */
export class CreateListenSessionRequestDto {
  @EnabledEvents('the event types streamed to the session; left out, every type of the mode')
  enabledEvents?: EventType[];
}
