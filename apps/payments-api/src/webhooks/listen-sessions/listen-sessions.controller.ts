import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import { randomBase62, type DataEnvelope, type WebhookAttemptView } from '@payhook/contracts';
import type { Response } from 'express';
import { IdParam } from '../../platform/http/id-param';
import { NoStore } from '../../platform/http/no-store';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { CreateListenSessionRequestDto } from './dto/create-listen-session.request.dto';
import { ReportListenAttemptRequestDto } from './dto/report-listen-attempt.request.dto';
import {
  toCreatedListenSessionView,
  toListenSessionView,
  type CreatedListenSessionView,
  type ListenSessionView,
} from './listen-session.record';
import { ListenSessionsService } from './listen-sessions.service';
import { ListenStreams } from './listen-streams';

type SessionEnvelope = DataEnvelope<ListenSessionView>;

/**
 * `payhook listen` (ADR 0018): a session is an ephemeral endpoint of the
 * key's test mode with its own signing secret; its stream carries every event of the mode, signed,
 * over the one connection the CLI opens; the CLI reports each local answer back as an attempt.
 */
@ApiTags('listen sessions')
@Controller('v1/listen-sessions')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class ListenSessionsController {
  constructor(
    private readonly sessions: ListenSessionsService,
    private readonly streams: ListenStreams,
  ) {}

  @Post()
  @NoStore()
  @ApiRoute({
    summary: 'Open a listen session (payhook listen): an ephemeral endpoint of the test mode with its own secret',
    status: 201,
    response: dataOf('CreatedListenSession'),
    errors: [...BODY_ERRORS, 'test_mode_only', 'listen_session_limit_reached'],
  })
  // The body is optional: an empty POST streams every event type.
  @ApiBody({ type: CreateListenSessionRequestDto, required: false })
  async create(
    @CurrentAuth() auth: AuthContext,
    @Body() body: CreateListenSessionRequestDto,
  ): Promise<DataEnvelope<CreatedListenSessionView>> {
    return { data: toCreatedListenSessionView(await this.sessions.create(auth, body.enabledEvents)) };
  }

  @Get(':id')
  @NoStore()
  @ApiRoute({
    summary: 'One listen session',
    status: 200,
    response: dataOf('ListenSession'),
    errors: ['resource_not_found', 'test_mode_only'],
  })
  async get(@CurrentAuth() auth: AuthContext, @IdParam('listenSession') id: string): Promise<SessionEnvelope> {
    return { data: toListenSessionView(await this.sessions.get(auth, id)) };
  }

  @Delete(':id')
  @NoStore()
  @ApiRoute({
    summary: 'End a listen session now (Ctrl-C in payhook listen)',
    status: 200,
    response: dataOf('ListenSession'),
    errors: ['resource_not_found', 'test_mode_only'],
  })
  async end(@CurrentAuth() auth: AuthContext, @IdParam('listenSession') id: string): Promise<SessionEnvelope> {
    return { data: toListenSessionView(await this.sessions.end(auth, id)) };
  }

  @Get(':id/stream')
  @ApiRoute({
    summary:
      'The session’s events as Server-Sent Events: `delivery` messages (id = event id) holding the headers and body ' +
      'of a signed delivery; Last-Event-ID resumes after that event',
    status: 200,
    mediaType: 'text/event-stream',
    response: { type: 'string' },
    errors: ['resource_not_found', 'test_mode_only', 'listen_session_ended'],
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'the last event id received, to resume after it' })
  async stream(
    @CurrentAuth() auth: AuthContext,
    @IdParam('listenSession') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    // Names this connection: a newer stream of the same session takes over from it.
    const connectionId = randomBase62(24);
    const session = await this.sessions.claim(auth, id, connectionId);
    const resumeFrom = await this.sessions.resumePoint(auth, lastEventId);
    await this.streams.serve(
      { session, connectionId, resumeFrom, lastEventId: resumeFrom ? (lastEventId ?? null) : null },
      response,
    );
  }

  @Post(':id/attempts')
  @HttpCode(201)
  @ApiRoute({
    summary: 'Record what the local handler answered to a forwarded event, as an attempt of that event',
    status: 201,
    response: dataOf('WebhookAttempt'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'test_mode_only', 'listen_session_ended'],
  })
  async reportAttempt(
    @CurrentAuth() auth: AuthContext,
    @IdParam('listenSession') id: string,
    @Body() body: ReportListenAttemptRequestDto,
  ): Promise<DataEnvelope<WebhookAttemptView>> {
    return { data: await this.sessions.reportAttempt(auth, id, body) };
  }
}
