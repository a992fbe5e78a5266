import { CliError, EXIT } from './cli-error';
import { EVENTS_HELP, HELP, LISTEN_HELP, PAYMENTS_HELP, TRIGGER_HELP } from './help';
import { note, print } from './output';

type Command = (args: string[]) => Promise<number>;

/** Loaded when run, so `payhook --help` reads no SDK and no command it does not run. */
const COMMANDS: Record<string, { load: () => Promise<Command>; help: string }> = {
  listen: { load: async () => (await import('./commands/listen.command.js')).listenCommand, help: LISTEN_HELP },
  trigger: { load: async () => (await import('./commands/trigger.command.js')).triggerCommand, help: TRIGGER_HELP },
  payments: { load: async () => (await import('./commands/payments.command.js')).paymentsCommand, help: PAYMENTS_HELP },
  events: { load: async () => (await import('./commands/events.command.js')).eventsCommand, help: EVENTS_HELP },
};

/** Runs the command line and resolves with the exit code; every failure is one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && args[0] ? COMMANDS[args[0]] : undefined;
    print(topic ? topic.help : HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    note(`payhook: unknown command "${name}" (see payhook --help)`);
    return EXIT.usage;
  }
  try {
    if (args.includes('--help') || args.includes('-h')) {
      print(command.help);
      return EXIT.ok;
    }
    return await (
      await command.load()
    )(args);
  } catch (error) {
    const failure =
      error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error));
    note(`payhook ${name}: ${failure.message}`);
    return failure.exitCode;
  }
}
