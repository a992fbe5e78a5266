import { newId, randomBase62, type PaymentCompletedEvent } from '@payhook/contracts';
import { deliveryHeaders, signWebhook } from '@payhook/signing';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';

const run = promisify(execFile);
const REPO = join(__dirname, '../..');
const SDK_DIR = join(REPO, 'libs/sdk');
/** tsc, npm pack and npm install on a busy machine: minutes, not seconds (each took 10-30 s on an idle one). */
const PACKAGING_TIMEOUT_MS = 300_000;
const CONSUMER_TIMEOUT_MS = 180_000;

/**
 * The environment without what `npm test` puts in it for its own package (npm_config_local_prefix and
 * friends): an npm run in another directory must act on that directory, not on the repository.
 */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'));
}

/** What a merchant's code does with the SDK; the same for `require` and `import` (see the two entries below). */
const CONSUMER = String.raw`
async function useSdk(sdk, input) {
  const { PayhookClient, PayhookApiError, verifyWebhook, WebhookVerificationError, WEBHOOK_HEADERS } = sdk;
  const client = new PayhookClient({ apiKey: input.apiKey, baseUrl: input.baseUrl, maxRetries: 0 });
  const created = await client.createPayment(input.payment, { idempotencyKey: input.idempotencyKey });
  const fetched = await client.getPayment(created.id);
  let apiError;
  try {
    await new PayhookClient({ apiKey: 'svc_test_not_a_key', baseUrl: input.baseUrl, maxRetries: 0 }).getPayment(created.id);
  } catch (error) {
    apiError = { isApiError: error instanceof PayhookApiError, status: error.status, code: error.code };
  }
  const { body, signature, secret, eventId, standardHeaders } = input.webhook;
  const event = verifyWebhook(Buffer.from(body), signature, secret, { eventIdHeader: eventId });
  const standardEvent = verifyWebhook(Buffer.from(body), standardHeaders, secret);
  let refused;
  try {
    verifyWebhook(Buffer.from(body.replace('15000', '15001')), signature, secret);
  } catch (error) {
    refused = error instanceof WebhookVerificationError ? error.reason : String(error);
  }
  return { exports: Object.keys(sdk).filter((name) => name !== 'default').sort(), created, fetched, apiError, event, standardEvent, refused, headers: WEBHOOK_HEADERS };
}
const input = JSON.parse(process.env.SDK_TEST_INPUT);
`;
const CONSUMERS = {
  'use.cjs':
    `const sdk = require('@payhook/sdk');\n${CONSUMER}\n` +
    `useSdk(sdk, input).then((result) => console.log(JSON.stringify({ ...result, resolved: require.resolve('@payhook/sdk'), sameCopy: true })), (error) => { console.error(error); process.exit(1); });\n`,
  'use.mjs':
    `import * as sdk from '@payhook/sdk';\nimport { createRequire } from 'node:module';\n${CONSUMER}\n` +
    // Both entries must be one copy of the code, or `instanceof` fails for a merchant that mixes them.
    `const sameCopy = createRequire(import.meta.url)('@payhook/sdk').WebhookVerificationError === sdk.WebhookVerificationError;\n` +
    `const result = await useSdk(sdk, input);\nconsole.log(JSON.stringify({ ...result, resolved: import.meta.resolve('@payhook/sdk'), sameCopy }));\n`,
};

/** A merchant's TypeScript, both module kinds: compiles only if the package's types are there and precise. */
const TYPESCRIPT_CONSUMERS = {
  'typed.mts': `import {
  PayhookClient,
  verifyWebhook,
  type CashReceiptView,
  type CreatedPaymentView,
  type EscrowView,
  type PaymentView,
  type WebhookEvent,
} from '@payhook/sdk';
const client = new PayhookClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:1' });
const body = { orderId: 'o', customerId: 'c', amount: 1, currency: 'KRW', returnUrl: 'https://shop.example' } as const;
export const created: Promise<CreatedPaymentView> = client.createPayment(body);
// @ts-expect-error the amount is a number
export const wrong = client.createPayment({ ...body, amount: '1' });
export function paidAt(event: WebhookEvent = verifyWebhook('', undefined, 'whsec_x')): string | undefined {
  return event.type === 'payment.completed' ? event.data.completedAt : undefined;
}
// Refund events narrow by type like payment events.
export function refundedAt(event: WebhookEvent): string | undefined {
  return event.type === 'refund.succeeded' ? event.data.succeededAt : undefined;
}
// Cash receipt events narrow to the receipt: an issued one has its number, a failed one its reason.
export function receiptNumber(event: WebhookEvent): string | undefined {
  return event.type === 'cash_receipt.issued' ? event.data.issueNumber : undefined;
}
export function receiptFailure(event: WebhookEvent): string | undefined {
  return event.type === 'cash_receipt.failed' ? event.data.failureReason : undefined;
}
export const receipt: Promise<CashReceiptView> = client.createCashReceipt('pay_x', {
  type: 'income_deduction',
  identityNumber: '010-1234-5678',
});
// @ts-expect-error not a receipt type
export const wrongReceipt = client.createCashReceipt('pay_x', { type: 'tax_refund', identityNumber: '0' });
// Escrow events narrow to how the escrow closed: a confirmation says whether it was automatic, a rejection why.
export function escrowAutoConfirmed(event: WebhookEvent): boolean | undefined {
  return event.type === 'escrow.confirmed' ? event.data.autoConfirmed : undefined;
}
export function escrowRejectReason(event: WebhookEvent): string | undefined {
  return event.type === 'escrow.rejected' ? event.data.rejectReason : undefined;
}
export const escrowCreated: Promise<CreatedPaymentView> = client.createPayment({ ...body, escrow: { buyerEmail: 'b@example.com' } });
export const shipped: Promise<PaymentView> = client.shipEscrow('pay_x', { carrier: 'CJ', trackingNumber: '1' });
export const escrowOf = async (id: string): Promise<EscrowView | null> => (await client.getPayment(id)).escrow;
// @ts-expect-error a shipment names its tracking number
export const noTracking = client.shipEscrow('pay_x', { carrier: 'CJ' });
// A request's headers, as Node types them, in place of the signature header.
export function fromRequest(rawBody: Buffer, headers: import('node:http').IncomingHttpHeaders): WebhookEvent {
  return verifyWebhook(rawBody, headers, 'whsec_x');
}
`,
  'typed.cts': `import sdk = require('@payhook/sdk');
export const reason: sdk.WebhookVerificationErrorReason = 'signature_mismatch';
// @ts-expect-error not a reason the SDK knows
export const unknownReason: sdk.WebhookVerificationErrorReason = 'no_such_reason';
export const middleware: sdk.RawBodyMiddleware = sdk.rawJsonBody({ limitBytes: 1024 });
`,
};

/**
 * The merchant SDK as a merchant gets it (issue 24): `npm pack` in libs/sdk builds it and makes a tarball,
 * which a project outside the repository installs (no registry needed: the SDK has no dependencies) and
 * uses from plain Node, with `require` and with `import`, against a real payments API.
 */
describe('@payhook/sdk packed and installed outside the repository', () => {
  let workDir: string;
  let projectDir: string;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  async function packAndInstall(): Promise<void> {
    const packDir = join(workDir, 'pack');
    mkdirSync(packDir);
    const npm = (args: string[], cwd: string) =>
      run('npm', [...args, '--cache', join(workDir, 'npm-cache'), '--no-audit', '--no-fund'], {
        cwd,
        env: childEnv(),
        maxBuffer: 16 * 1024 * 1024,
      });
    await npm(['pack', '--pack-destination', packDir], SDK_DIR);
    const tarballs = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
    expect(tarballs).toEqual(['payhook-sdk-0.1.0.tgz']);

    writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'shop', private: true }));
    // --offline: installing must not need the registry, so the package must not depend on anything.
    await npm(['install', '--offline', join(packDir, tarballs[0])], projectDir);
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'payhook-sdk-package-'));
    projectDir = join(workDir, 'shop');
    mkdirSync(projectDir);
    const starting = PaymentsApiHarness.start().then((started) => (api = started));
    // Both settle before anything throws, so afterAll stops an API that started beside a failed install.
    const [started, packed] = await Promise.allSettled([starting, packAndInstall()]);
    for (const outcome of [started, packed]) if (outcome.status === 'rejected') throw outcome.reason;
    merchant = await api.merchantWithKey('test');
  }, PACKAGING_TIMEOUT_MS);
  afterAll(async () => {
    await api?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('holds the built JavaScript, its types, package.json and the README: no source, no tests', () => {
    const installed = join(projectDir, 'node_modules/@payhook/sdk');
    const files = readdirSync(installed, { recursive: true, encoding: 'utf8' }).map((file) => file.replace(/\\/g, '/'));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts']),
    );
    const repositoryOnly = (file: string) =>
      /^src\/|\.spec\.|\.check\.|openapi\.generated/.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts'));
    expect(files.filter(repositoryOnly)).toEqual([]);
    expect(readdirSync(join(projectDir, 'node_modules'))).toEqual(['.package-lock.json', '@payhook']);
  });

  it.each(Object.keys(CONSUMERS))(
    '%s creates a payment on the API and verifies a webhook signed by libs/signing',
    async (file) => {
      writeFileSync(join(projectDir, file), CONSUMERS[file as keyof typeof CONSUMERS]);
      const payment = paymentBody();
      const event: PaymentCompletedEvent = {
        id: newId('event'),
        type: 'payment.completed',
        createdAt: new Date().toISOString(),
        data: {
          paymentId: newId('payment'),
          orderId: payment.orderId as string,
          amount: 15000,
          currency: 'KRW',
          completedAt: new Date().toISOString(),
        },
      };
      const secret = `whsec_${randomBase62(32)}`;
      const body = JSON.stringify(event);
      const standard = deliveryHeaders({ eventId: event.id, body, secrets: [secret] });
      const input = {
        apiKey: merchant.key,
        baseUrl: api.baseUrl,
        payment,
        idempotencyKey: `sdk-package-${file}-${payment.orderId as string}`,
        webhook: {
          body,
          signature: signWebhook(secret, body),
          secret,
          eventId: event.id,
          // The Standard Webhooks headers alone, as a request's headers object carries them.
          standardHeaders: {
            'webhook-id': standard['webhook-id'],
            'webhook-timestamp': standard['webhook-timestamp'],
            'webhook-signature': standard['webhook-signature'],
          },
        },
      };

      const { stdout } = await run(process.execPath, [file], {
        cwd: projectDir,
        env: { ...childEnv(), SDK_TEST_INPUT: JSON.stringify(input) },
      });
      const result = JSON.parse(stdout);

      // The installed copy, not the repository's source, answered.
      const resolved = String(result.resolved).replace(/^file:\/\//, '');
      expect(relative(join(projectDir, 'node_modules/@payhook/sdk/dist'), resolved)).toMatch(/^index\.m?js$/);
      expect(result.sameCopy).toBe(true);
      expect(result.exports).toEqual([
        'CURRENCY',
        'DEFAULT_RAW_BODY_LIMIT_BYTES',
        'DEFAULT_TOLERANCE_SECONDS',
        'PayhookApiError',
        'PayhookClient',
        'PayhookConnectionError',
        'WEBHOOK_HEADERS',
        'WebhookVerificationError',
        'rawJsonBody',
        'verifyWebhook',
      ]);

      expect(result.created).toMatchObject({ orderId: payment.orderId, amount: 15000, status: 'pending' });
      expect(result.fetched).toMatchObject({ id: result.created.id, livemode: false });
      const stored = await api.as(merchant).get(`/v1/payments/${result.created.id}`).expect(200);
      expect(stored.body.data.orderId).toBe(payment.orderId);
      expect(result.apiError).toEqual({ isApiError: true, status: 401, code: 'api_key_invalid' });

      expect(result.event).toEqual(event);
      expect(result.standardEvent).toEqual(event);
      expect(result.refused).toBe('signature_mismatch');
      expect(result.headers).toEqual({
        eventId: 'Service-Event-Id',
        signature: 'Service-Signature',
        webhookId: 'webhook-id',
        webhookTimestamp: 'webhook-timestamp',
        webhookSignature: 'webhook-signature',
      });
    },
    CONSUMER_TIMEOUT_MS,
  );

  it(
    'types a TypeScript project that imports or requires it',
    async () => {
      for (const [file, source] of Object.entries(TYPESCRIPT_CONSUMERS)) writeFileSync(join(projectDir, file), source);
      const tsconfig = {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          // The merchant's own @types/node; this project has no node_modules of its own but the SDK.
          typeRoots: [join(REPO, 'node_modules/@types')],
          types: ['node'],
        },
        files: Object.keys(TYPESCRIPT_CONSUMERS),
      };
      writeFileSync(join(projectDir, 'tsconfig.json'), JSON.stringify(tsconfig));
      const tsc = require.resolve('typescript/bin/tsc');
      await expect(run(process.execPath, [tsc, '-p', projectDir], { cwd: projectDir })).resolves.toMatchObject({
        stdout: '',
      });
    },
    CONSUMER_TIMEOUT_MS,
  );
});
