import { asCliError, connect, parseCommand } from '../cli-context';
import { EXIT, usageError } from '../cli-error';
import { EVENTS_HELP } from '../help';
import { print } from '../output';

export async function eventsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, { endpoint: { type: 'string' } }, 'events');
  const [action, id, extra] = positionals;
  if (values.help || action === undefined) {
    print(EVENTS_HELP);
    return action === undefined && !values.help ? EXIT.usage : EXIT.ok;
  }
  if (action !== 'resend') throw usageError(`Unknown events command "${action}"`, 'events');
  if (id === undefined) throw usageError('Which event? payhook events resend <evt_id>', 'events');
  if (extra !== undefined) throw usageError(`Unexpected argument "${extra}"`, 'events');
  const { client, apiUrl } = connect(values, 'events');
  try {
    const queued = await client.redeliverEvent(id, values.endpoint ? { endpointId: values.endpoint } : {});
    print(`event ${queued.eventId} ${queued.status}`);
    return EXIT.ok;
  } catch (error) {
    throw asCliError(error, apiUrl);
  }
}
