import type { INestApplication } from '@nestjs/common';
import { Writable } from 'node:stream';
import { announcePaymentsApi } from '../../apps/payments-api/src/listening';
import { announceWebhookDispatcher } from '../../apps/webhook-dispatcher/src/listening';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { startDispatcher } from '../support/webhook-dispatcher.harness';

jest.setTimeout(120_000);

/** An app's JSON lines, as its terminal or log pipeline gets them. */
class CapturedRecords extends Writable {
  readonly records: { level: number; msg: string; module?: string }[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.records.push(JSON.parse(line));
    done();
  }
}

const PINO_INFO = 30;
const PINO_DEBUG = 20;
const ROUTE_MAPPING = /^Mapped \{|\{\/.*\}:$/;

/** The URLs of a `… listening: label URL, label URL` line, by label. */
function linksOf(line: string): Record<string, string> {
  return Object.fromEntries(
    line
      .replace(/^.* listening: /, '')
      .split(', ')
      .map((part) => part.split(' ') as [string, string]),
  );
}

/**
 * GET `url` with its body read to the end: a body left unread holds its keep-alive connection open,
 * and the worker with it, after the apps have stopped.
 */
async function visit(url: string, init?: RequestInit): Promise<{ status: number; location: string | null }> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

/**
 * Issue 24: start-up says where each app listens, in one line, and keeps Nest's route and module
 * lines at debug. nestjs-pino has one logger per process, made by the first app: both apps here write
 * to it, at LOG_LEVEL=debug so the route lines are there to be found at their level.
 */
describe('start-up lines', () => {
  const log = new CapturedRecords();
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' }, undefined, log);
    dispatcher = await startDispatcher({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' }, log);
  });
  afterAll(async () => {
    await dispatcher.close();
    await api.stop();
  });

  it("keeps Nest's route mapping and module lines at debug, out of an info log", () => {
    const startUpDetail = log.records.filter(
      (record) => ROUTE_MAPPING.test(record.msg) || record.module === 'InstanceLoader',
    );
    expect(startUpDetail.some((record) => record.msg.startsWith('Mapped {/v1/payments, POST}'))).toBe(true);
    expect(startUpDetail.some((record) => record.msg.startsWith('Mapped {/health, GET}'))).toBe(true);
    expect(startUpDetail.filter((record) => record.level !== PINO_DEBUG)).toEqual([]);
  });

  it('the API: one line at info with its API, console, docs and health URLs, each answering', async () => {
    announcePaymentsApi(api.app);

    const { port } = api.app.getHttpServer().address() as { port: number };
    const listening = log.records.filter((record) => record.msg.startsWith('payments-api listening: '));
    expect(listening).toEqual([expect.objectContaining({ level: PINO_INFO })]);
    const links = linksOf(listening[0].msg);
    expect(links).toEqual({
      API: `http://127.0.0.1:${port}/v1`,
      console: `http://127.0.0.1:${port}/console`,
      docs: `http://127.0.0.1:${port}/docs`,
      health: `http://127.0.0.1:${port}/health`,
    });
    expect((await visit(links.docs)).status).toBe(200);
    expect((await visit(links.health)).status).toBe(200);
    expect((await visit(links.console, { redirect: 'manual' })).location).toMatch(/\/console\/login/);
  });

  it('the dispatcher: one line at info with its health, ready and metrics URLs, each answering', async () => {
    announceWebhookDispatcher(dispatcher);

    const listening = log.records.filter((record) => record.msg.startsWith('webhook-dispatcher listening: '));
    expect(listening).toEqual([expect.objectContaining({ level: PINO_INFO })]);
    const links = linksOf(listening[0].msg);
    expect(Object.keys(links)).toEqual(['health', 'ready', 'metrics']);
    for (const url of Object.values(links)) expect((await visit(url)).status).toBe(200);
  });
});
