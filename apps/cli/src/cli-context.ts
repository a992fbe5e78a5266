import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PayhookApiError, PayhookClient, PayhookConnectionError } from '@payhook/sdk';
import { CliError, EXIT, usageError } from './cli-error';

export const DEFAULT_API_URL = 'http://localhost:3000';

/** What every command takes: the key and where payhook is, else the environment's. */
export const GLOBAL_OPTIONS = {
  'api-key': { type: 'string' },
  'api-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Options = NonNullable<ParseArgsConfig['options']>;

/** The command's arguments, or a usage error naming what is wrong (never util's stack or its advice). */
export function parseCommand<O extends Options>(args: string[], options: O, command: string) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(argumentProblem(error), command);
  }
}

/** What util.parseArgs found wrong, said in one short sentence. */
function argumentProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  // util names an option '--limit' or '-h, --help': the long name is the last.
  const option = /'(-[^']*)'/
    .exec(message ?? '')?.[1]
    ?.split(', ')
    .at(-1)
    ?.split(' ')[0];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return message?.includes('does not take an argument') ? `${option} takes no value.` : `${option} needs a value.`;
  }
  return message ?? String(error);
}

export interface Connection {
  client: PayhookClient;
  apiKey: string;
  /** Where the key came from, for the messages about it. */
  keySource: '--api-key' | 'PAYHOOK_API_KEY';
  apiUrl: string;
}

/** The SDK client for `--api-key`/PAYHOOK_API_KEY at `--api-url`/PAYHOOK_API_URL. */
export function connect(values: { 'api-key'?: string; 'api-url'?: string }, command: string): Connection {
  const keySource = values['api-key'] !== undefined ? '--api-key' : 'PAYHOOK_API_KEY';
  const apiKey = values['api-key'] ?? process.env.PAYHOOK_API_KEY ?? '';
  const urlSource = values['api-url'] !== undefined ? '--api-url' : 'PAYHOOK_API_URL';
  const apiUrl = values['api-url'] ?? process.env.PAYHOOK_API_URL ?? DEFAULT_API_URL;
  if (apiKey === '') throw usageError('No API key: set PAYHOOK_API_KEY or pass --api-key svc_test_…', command);
  // Parsed as the SDK parses it, so a URL it would refuse ("http://a b") is a usage error, not a TypeError.
  if (!/^https?:\/\/[^/]/.test(apiUrl) || !URL.canParse(apiUrl)) {
    throw usageError(`${urlSource} must be an http(s) URL such as ${DEFAULT_API_URL}, not "${apiUrl}"`, command);
  }
  // Two retries: a command a person typed should answer quickly rather than wait out a long backoff.
  const client = new PayhookClient({ apiKey, baseUrl: apiUrl, maxRetries: 2, timeoutMs: 15_000 });
  return { client, apiKey, keySource, apiUrl };
}

/** Test helpers and listen sessions take test keys only: said before any request is made. */
export function requireTestKey({ apiKey, keySource }: Pick<Connection, 'apiKey' | 'keySource'>, what: string): void {
  if (apiKey.startsWith('svc_live_')) {
    throw new CliError(`${what} works with test keys only (svc_test_…); ${keySource} is a live key.`, EXIT.failed);
  }
}

/** An SDK failure as the one line the CLI prints and the exit code scripts see. */
export function asCliError(error: unknown, apiUrl: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof PayhookConnectionError) {
    return new CliError(`Cannot reach payhook at ${apiUrl}: ${error.message}`, EXIT.unreachable);
  }
  if (error instanceof PayhookApiError) {
    const where = error.param ? ` (${error.param})` : '';
    return new CliError(`payhook answered ${error.status} ${error.code}${where}: ${error.message}`, EXIT.failed);
  }
  return new CliError(error instanceof Error ? error.message : String(error), EXIT.failed);
}
