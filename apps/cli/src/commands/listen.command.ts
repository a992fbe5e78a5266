import { PayhookApiError, type CreatedListenSession, type EventType, type PayhookClient } from '@payhook/sdk';
import { asCliError, connect, parseCommand, requireTestKey } from '../cli-context';
import { CliError, EXIT, usageError } from '../cli-error';
import { EVENT_TYPES, isEventType } from '../event-types';
import { forwardDelivery, type LocalAnswer } from '../listen/forward-delivery';
import { ListenStream, type StreamedDelivery } from '../listen/listen-stream';
import { LISTEN_HELP } from '../help';
import { note, print, progress, style } from '../output';

const SHUTDOWN_WAIT_MS = 5_000;

export async function listenCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { 'forward-to': { type: 'string' }, events: { type: 'string' } },
    'listen',
  );
  if (values.help) {
    print(LISTEN_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw usageError(`Unexpected argument "${positionals[0]}"`, 'listen');
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw usageError('--forward-to <url> is required', 'listen');
  if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) {
    throw usageError(
      `--forward-to must be an http(s) URL such as http://localhost:4242/webhooks, not "${forwardTo}"`,
      'listen',
    );
  }
  const events = values.events === undefined ? undefined : parseEventTypes(values.events);
  const connection = connect(values, 'listen');
  const { client, apiUrl } = connection;
  requireTestKey(connection, 'payhook listen');

  const connecting = progress(`Connecting to payhook at ${apiUrl}…`);
  let session: CreatedListenSession;
  try {
    session = await client.createListenSession(events ? { enabledEvents: events } : {});
  } catch (error) {
    connecting.done();
    if (error instanceof PayhookApiError && error.code === 'test_mode_only') {
      throw new CliError('payhook listen works with test keys only (svc_test_…); this key is a live key.', EXIT.failed);
    }
    throw asCliError(error, apiUrl);
  }
  return new ListenRun(client, session, forwardTo, connecting.done).run();
}

function parseEventTypes(text: string): EventType[] {
  const types = text
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  const unknown = types.find((type) => !isEventType(type));
  if (unknown !== undefined || types.length === 0) {
    throw usageError(`--events takes event types from: ${EVENT_TYPES.join(', ')}`, 'listen');
  }
  return types as EventType[];
}

/** One `payhook listen` run: the stream, the forwarding, the lines, and Ctrl-C. */
class ListenRun {
  private readonly stream: ListenStream;
  private readonly reports = new Set<Promise<void>>();

  constructor(
    private readonly client: PayhookClient,
    private readonly session: CreatedListenSession,
    private readonly forwardTo: string,
    private readonly connected: () => void,
  ) {
    this.stream = new ListenStream(client, session.id, {
      onReady: (resumed) => this.ready(resumed),
      onDelivery: (delivery) => this.forward(delivery),
      onDrop: (reason, retryInMs) =>
        note(style.yellow(`Connection lost (${reason}); reconnecting in ${Math.round(retryInMs / 1000)} s…`)),
    });
  }

  async run(): Promise<number> {
    const stop = () => this.stream.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let ended: string | null;
    try {
      ended = await this.stream.run();
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      this.connected();
    }
    await withTimeout(Promise.all(this.reports), SHUTDOWN_WAIT_MS);
    if (ended !== null) {
      note(`payhook ended session ${this.session.id}: ${ended}`);
      return EXIT.failed;
    }
    await withTimeout(
      this.client.endListenSession(this.session.id).catch(() => undefined),
      SHUTDOWN_WAIT_MS,
    );
    note(`Session ${this.session.id} ended.`);
    return EXIT.ok;
  }

  private ready(resumed: boolean): void {
    this.connected();
    if (resumed) {
      note(style.green('Reconnected; events sent meanwhile follow.'));
      return;
    }
    const types = this.session.enabledEvents ? this.session.enabledEvents.join(', ') : 'every event type';
    print(`Ready! Forwarding test-mode events (${types}) to ${style.bold(this.forwardTo)}`);
    print(`Your webhook signing secret for this session is ${style.bold(this.session.signingSecret)}`);
    print(style.dim(`Session ${this.session.id}. Press Ctrl-C to end it.`));
  }

  private async forward(delivery: StreamedDelivery): Promise<void> {
    const answer = await forwardDelivery(this.forwardTo, delivery);
    print(eventLine(delivery, answer));
    // Reported beside the next forwarding: payhook shows it as the event's attempt (endpointId = session).
    const report = this.client
      .reportListenAttempt(this.session.id, { eventId: delivery.eventId, ...answer })
      .then(
        () => undefined,
        (error: unknown) => note(style.dim(`Could not record the attempt of ${delivery.eventId}: ${errorText(error)}`)),
      )
      .finally(() => this.reports.delete(report));
    this.reports.add(report);
  }
}

/** `2026-12-01T09:15:02.114Z  payment.completed  evt_…  → 200` */
function eventLine(delivery: StreamedDelivery, answer: LocalAnswer): string {
  const outcome =
    answer.responseStatus === null
      ? style.red(`→ error: ${answer.error ?? 'no answer'}`)
      : answer.responseStatus >= 200 && answer.responseStatus < 300
        ? style.green(`→ ${answer.responseStatus}`)
        : style.red(`→ ${answer.responseStatus}`);
  return `${style.dim(new Date().toISOString())}  ${delivery.type.padEnd(17)}  ${delivery.eventId}  ${outcome} ${style.dim(`(${answer.durationMs} ms)`)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
