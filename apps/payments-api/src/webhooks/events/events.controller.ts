import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, EventView, ListEnvelope } from '@payhook/contracts';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { RecoverEventsRequestDto } from './dto/recover-events.request.dto';
import { RedeliverEventRequestDto } from './dto/redeliver-event.request.dto';
import type { EventSummaryView } from './event.record';
import { EventsService, type RecoverView } from './events.service';
import { IdParam } from '../../platform/http/id-param';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';

@ApiTags('events')
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get(':id')
  @ApiRoute({
    summary: 'One event with its delivery attempts',
    status: 200,
    response: dataOf('Event'),
    errors: ['resource_not_found'],
  })
  async get(@CurrentAuth() auth: AuthContext, @IdParam('event') id: string): Promise<DataEnvelope<EventView>> {
    return { data: await this.events.get(auth, id) };
  }

  @Get()
  @ApiRoute({
    summary: 'Events, newest first, keyset-paged',
    status: 200,
    response: listOf('EventSummary'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListEventsQueryDto): Promise<ListEnvelope<EventSummaryView>> {
    return this.events.list(auth, query);
  }

  @Post('recover')
  @ApiRoute({
    summary: 'Send every failed delivery since `since` again (of one endpoint, or all), oldest first',
    status: 202,
    response: dataOf('EventsRecovery'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'recover_in_progress'],
  })
  @HttpCode(202)
  async recover(
    @CurrentAuth() auth: AuthContext,
    @Body() body: RecoverEventsRequestDto,
  ): Promise<DataEnvelope<RecoverView>> {
    return { data: await this.events.recover(auth, body.since, body.endpointId ?? null) };
  }

  @Post(':id/redeliver')
  @ApiRoute({
    summary: 'Send the event once more (also a skipped one), to one endpoint or to each that takes it',
    status: 202,
    response: dataOf('EventRedelivery'),
    errors: ['resource_not_found', ...BODY_ERRORS],
  })
  // The body is optional: an empty POST sends to every endpoint that takes the type, as before.
  @ApiBody({ type: RedeliverEventRequestDto, required: false })
  @HttpCode(202)
  async redeliver(
    @CurrentAuth() auth: AuthContext,
    @IdParam('event') id: string,
    @Body() body: RedeliverEventRequestDto,
  ) {
    return { data: await this.events.redeliver(auth, id, body.endpointId ?? null) };
  }
}
