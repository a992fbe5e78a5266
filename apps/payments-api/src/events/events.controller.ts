import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, EventView, ListEnvelope } from '@payhook/contracts';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { RecoverEventsRequestDto } from './dto/recover-events.request.dto';
import type { EventSummaryView } from './event.record';
import { EventsService, type RecoverView } from './events.service';
import { IdParam } from '../http/id-param';

@Controller('v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get(':id')
  async get(@CurrentAuth() auth: AuthContext, @IdParam('event') id: string): Promise<DataEnvelope<EventView>> {
    return { data: await this.events.get(auth, id) };
  }

  @Get()
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListEventsQueryDto): Promise<ListEnvelope<EventSummaryView>> {
    return this.events.list(auth, query);
  }

  @Post('recover')
  @HttpCode(202)
  async recover(
    @CurrentAuth() auth: AuthContext,
    @Body() body: RecoverEventsRequestDto,
  ): Promise<DataEnvelope<RecoverView>> {
    return { data: await this.events.recover(auth, body.since) };
  }

  @Post(':id/redeliver')
  @HttpCode(202)
  async redeliver(@CurrentAuth() auth: AuthContext, @IdParam('event') id: string) {
    return { data: await this.events.redeliver(auth, id) };
  }
}
