import { Injectable } from '@nestjs/common';
import type { EventType, EventView, ListEnvelope } from '@payhook/contracts';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor';
import type { MerchantScope } from '@payhook/auth';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import { toEventSummaryView, toEventView, type EventSummaryView } from './event.record';
import { EventException } from './event.exception';
import { EventsRepository, type EventFilter } from './events.repository';
import { DeliveryRequests } from '../deliveries';

const DEFAULT_PAGE_SIZE = 20;

@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly deliveries: DeliveryRequests,
  ) {}

  async get(scope: MerchantScope, id: string): Promise<EventView> {
    const event = await this.events.findById(scope, id);
    if (!event) throw notFound(id);
    return toEventView(event, event.deliveries, event.attempts);
  }

  /** A payment's events with their attempts, newest first, as they are now (the primary). */
  async ofPayment(scope: MerchantScope, paymentId: string, limit: number): Promise<EventView[]> {
    const events = await this.events.ofPayment(scope, paymentId, limit);
    return events.map((event) => toEventView(event, event.deliveries, event.attempts));
  }

  async list(scope: MerchantScope, query: ListEventsQueryDto): Promise<ListEnvelope<EventSummaryView>> {
    const filter: EventFilter = { limit: query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE };
    if (query.type !== undefined) filter.type = query.type as EventType;
    if (query.paymentId !== undefined) filter.paymentId = query.paymentId;
    if (query.cursor !== undefined) {
      const cursor = decodeCursor(query.cursor, 'event');
      if (!cursor || !(await this.events.existsAt(scope, cursor))) {
        throw new EventException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
      }
      filter.after = cursor;
    }
    const rows = await this.events.list(scope, filter);
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    const hasMore = rows.length > filter.limit;
    return {
      data: page.map(toEventSummaryView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(last) : null,
    };
  }

  /** Same event id and body; the dispatcher signs it afresh. Works whatever the delivery status. */
  async redeliver(
    scope: MerchantScope,
    id: string,
    endpointId: string | null,
  ): Promise<{ eventId: string; status: 'queued' }> {
    const outcome = await this.deliveries.redeliver(scope, id, endpointId);
    if (outcome === 'event_not_found') throw notFound(id);
    if (outcome === 'endpoint_not_found') throw endpointNotFound(endpointId);
    return { eventId: id, status: 'queued' };
  }

  /** Sends every failed delivery since `since` again, oldest first; one recover at a time per merchant and mode. */
  async recover(scope: MerchantScope, since: string, endpointId: string | null): Promise<RecoverView> {
    const from = new Date(since);
    const recovered = await this.deliveries.recover(scope, from, endpointId);
    if (recovered === 'endpoint_not_found') throw endpointNotFound(endpointId);
    if (!recovered) {
      throw new EventException(
        'recover_in_progress',
        'A recover is already running for this merchant and mode; try again when its events have been sent.',
      );
    }
    return { since: from.toISOString(), queued: recovered.queued };
  }
}

/** POST /v1/events/recover. */
export interface RecoverView {
  since: string;
  queued: number;
}

function notFound(id: string): EventException {
  return new EventException('resource_not_found', `No such event: ${id}.`, 'id');
}

function endpointNotFound(id: string | null): EventException {
  return new EventException('resource_not_found', `No such webhook endpoint: ${id}.`, 'endpointId');
}
