import { EXCEPTION_FILTERS_METADATA, INTERCEPTORS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ConsoleExceptionFilter } from '../../apps/payments-api/src/surfaces/console/shared/console-exception.filter';
import { APP_INTERCEPTOR, ModulesContainer } from '@nestjs/core';
import { ConsoleWebhookBannerInterceptor } from '../../apps/payments-api/src/surfaces/console/shared/console-webhook-banner';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { randomUUID } from 'node:crypto';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import type { MemberRole } from '../../apps/payments-api/src/accounts/team/member-role';

const PASSWORD = 'a long enough password 1';

/**
 * Every console route and the least role it needs. The spec reads the routes the app
 * registered, so a new route without its row here fails the spec before it ships unchecked.
 * null: no session needed (login, invite links); the fallback 404 is left out.
 */
const ROUTES: Record<string, MemberRole | null> = {
  'GET /console/login': null,
  'POST /console/login': null,
  'POST /console/login/choose': null,
  'GET /console/login/two-step': null,
  'POST /console/login/two-step': null,
  'GET /console/invite/:token': null,
  'POST /console/invite/:token': null,
  'GET /console/login/forgot': null,
  'POST /console/login/forgot': null,
  'GET /console/reset/:token': null,
  'POST /console/reset/:token': null,
  'POST /console/logout': 'viewer',
  'GET /console': 'viewer',
  'GET /console/payments': 'viewer',
  'GET /console/payments/:id': 'viewer',
  'POST /console/payments/:id/events/:eventId/redeliver': 'developer',
  'GET /console/payments/:id/refunds/review': 'developer',
  'GET /console/payments/:id/refunds/edit': 'developer',
  'POST /console/payments/:id/refunds/review': 'developer',
  'POST /console/payments/:id/refunds/edit': 'developer',
  'POST /console/payments/:id/refunds': 'developer',
  'GET /console/payments/:id/escrow/shipment': 'developer',
  'POST /console/payments/:id/escrow/shipment': 'developer',
  'GET /console/settlements': 'viewer',
  'GET /console/settlements/export': 'viewer',
  'GET /console/developers': 'viewer',
  'POST /console/developers/webhook-endpoint': 'developer',
  'POST /console/developers/webhook-endpoint/enable': 'developer',
  'POST /console/developers/recover': 'developer',
  'GET /console/developers/rotate-secret': 'developer',
  'POST /console/developers/rotate-secret': 'developer',
  'POST /console/developers/endpoints': 'developer',
  'POST /console/developers/endpoints/:id': 'developer',
  'POST /console/developers/endpoints/:id/enable': 'developer',
  'POST /console/developers/endpoints/:id/disable': 'developer',
  'GET /console/developers/endpoints/:id/:action': 'developer',
  'POST /console/developers/endpoints/:id/rotate-secret': 'developer',
  'POST /console/developers/endpoints/:id/delete': 'developer',
  'POST /console/developers/integration-tests': 'developer',
  'POST /console/developers/keys': 'developer',
  'POST /console/developers/keys/:id/roll': 'developer',
  'POST /console/developers/keys/:id/revoke': 'developer',
  'GET /console/settings': 'viewer',
  'POST /console/settings': 'owner',
  'GET /console/team': 'viewer',
  'POST /console/team/invites': 'owner',
  'POST /console/team/invites/:id/resend': 'owner',
  'POST /console/team/invites/:id/revoke': 'owner',
  'POST /console/team/members/:id/role': 'owner',
  'GET /console/team/members/:id/remove': 'owner',
  'POST /console/team/members/:id/remove': 'owner',
  'GET /console/security': 'viewer',
  'POST /console/security/language': 'viewer',
  'POST /console/security/password': 'viewer',
  'POST /console/security/two-step': 'viewer',
  'POST /console/security/two-step/confirm': 'viewer',
  'POST /console/security/two-step/disable': 'viewer',
  'GET /console/audit': 'viewer',
};

const RANK: Record<MemberRole, number> = { viewer: 0, developer: 1, owner: 2 };

/** Ids of nothing: the request reaches the handler's own checks, which find nothing to change. */
const PARAMS: Record<string, string> = {
  id: 'pay_000000000000000000000000',
  eventId: 'evt_000000000000000000000000',
  action: 'disable',
  token: 'x'.repeat(43),
};

/** `[method, path]` of every route Express holds under /console. */
function registeredConsoleRoutes(api: PaymentsApiHarness): string[] {
  const express = api.app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] };
  };
  const routes: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    for (const path of [layer.route.path].flat()) {
      if (!path.startsWith('/console') || path.includes('*')) continue;
      for (const method of Object.keys(layer.route.methods)) routes.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return routes.sort();
}

/** Global modules of a running payments-api: Nest's, the logger's, TypeORM's, the libs' infrastructure, the configuration. */
const GLOBAL_MODULES = [
  // RabbitMQ's connection, unless the webhook queue is a table of the database (test:postgres-queue).
  ...(process.env.PAYHOOK_TEST_WEBHOOK_QUEUE === 'postgres' ? [] : ['AmqpModule']),
  'InternalCoreModule',
  'LoggerModule',
  'PaymentsApiConfigModule',
  'ReadDatabaseModule',
  'TypeOrmCoreModule',
  'WebhookQueueModule',
];

describe('merchant console: every route checks the role on the server', () => {
  let api: PaymentsApiHarness;
  const members = {} as Record<MemberRole, ConsoleClient>;
  let paymentId: string;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    const shop = await approvedMerchant(api, { name: 'Roles Shop' });
    // Something on every page to change: endpoints (the first and a further one), a completed payment with its event.
    const merchantApi = api.as(shop);
    await merchantApi.put('/v1/webhook-endpoint').send({ url: 'https://roles.example/hook' }).expect(200);
    await merchantApi.post('/v1/webhook-endpoints').send({ url: 'https://roles.example/books' }).expect(201);
    const created = await merchantApi
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody())
      .expect(201);
    paymentId = created.body.data.id as string;
    await merchantApi.post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    members.owner = await ConsoleClient.login(api, shop.email);
    for (const role of ['developer', 'viewer'] as const) {
      const email = `${role}@roles.example`;
      const made = await members.owner.post('/console/team/invites', { email, role }).expect(200);
      const link = /<code data-invite-link>([^<]+)<\/code>/.exec(made.text)![1];
      await api
        .http()
        .post(new URL(link).pathname)
        .type('form')
        .send({ password: PASSWORD, passwordAgain: PASSWORD })
        .expect(303);
      members[role] = await ConsoleClient.login(api, email, PASSWORD);
    }
  });
  afterAll(() => api.stop());

  it('has a row for every console route the app serves', () => {
    expect(registeredConsoleRoutes(api)).toEqual(Object.keys(ROUTES).sort());
  });

  it('binds the webhook banner and the console error pages to console controllers only', () => {
    const controllers = [...api.app.get(ModulesContainer).values()].flatMap((module) =>
      [...module.controllers.values()].map((wrapper) => wrapper.metatype as new () => unknown),
    );
    const bound = controllers.map((controller) => ({
      path: String(Reflect.getMetadata(PATH_METADATA, controller)),
      banner: ((Reflect.getMetadata(INTERCEPTORS_METADATA, controller) ?? []) as unknown[]).includes(
        ConsoleWebhookBannerInterceptor,
      ),
      errorPages: ((Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, controller) ?? []) as unknown[]).includes(
        ConsoleExceptionFilter,
      ),
    }));
    expect(bound.filter((one) => one.path.startsWith('console')).length).toBeGreaterThan(10);
    for (const one of bound) {
      const isConsole = one.path.startsWith('console');
      expect(one).toEqual({ path: one.path, banner: isConsole, errorPages: isConsole });
    }
    // Not an interceptor of every route of the app.
    const providers = [...api.app.get(ModulesContainer).values()].flatMap((module) => [...module.providers.keys()]);
    expect(providers.filter((token) => String(token).startsWith(APP_INTERCEPTOR))).toEqual([]);
  });

  it('has no global module of its own but the configuration: module imports show who depends on whom', () => {
    const globals = [...api.app.get(ModulesContainer).values()]
      .filter((module) => module.isGlobal)
      .map((module) => module.metatype.name)
      .sort();
    expect(globals).toEqual(GLOBAL_MODULES);
  });

  const cases = Object.entries(ROUTES)
    .filter(([route, needed]) => needed !== null && route !== 'POST /console/logout')
    .flatMap(([route, needed]) =>
      (['owner', 'developer', 'viewer'] as const).map((role) => [route, needed!, role] as const),
    );

  it.each(cases)('%s needs %s: as %s', async (route, needed, role) => {
    const [method, pattern] = route.split(' ');
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => PARAMS[name]);
    const client = members[role];
    const answer = method === 'GET' ? await client.get(path) : await client.post(path, {});
    if (RANK[role] >= RANK[needed]) {
      // Past the role check: the handler's own answer (nothing found, a form that needs its fields).
      expect(answer.text).not.toContain('This needs the');
      expect(answer.status).toBeLessThan(500);
    } else {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain(`This needs the ${needed} role; you are ${role}.`);
    }
  });

  /** The route of ROUTES a form posts to (POST) or a link opens (GET). */
  function routeOf(method: 'GET' | 'POST', path: string): string | undefined {
    return Object.keys(ROUTES).find((route) => {
      const [routeMethod, pattern] = route.split(' ');
      return routeMethod === method && new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`).test(path);
    });
  }

  it.each(['viewer', 'developer', 'owner'] as const)(
    'shows a %s only the forms and links that role can use',
    async (role) => {
      const pages = [
        '/console/payments',
        `/console/payments/${paymentId}?mode=test`,
        '/console/developers',
        '/console/settings',
        '/console/team',
        '/console/security',
        '/console/audit',
      ];
      const actions = new Set<string>();
      const links = new Set<string>();
      for (const page of pages) {
        const text = (await members[role].get(page).expect(200)).text;
        for (const match of text.matchAll(/<form\s+method="post"\s+action="([^"?]+)/g)) actions.add(match[1]);
        for (const match of text.matchAll(/href="(\/console[^"?#]*)/g)) links.add(match[1]);
      }
      const routes = [
        ...[...actions].map((action) => [action, routeOf('POST', action)] as const),
        ...[...links].map((link) => [link, routeOf('GET', link)] as const),
      ];
      expect(routes.filter(([, route]) => route === undefined)).toEqual([]);
      const beyond = routes.filter(([, route]) => RANK[role] < RANK[ROUTES[route!]!]);
      expect(beyond).toEqual([]);
      // And what the role can use is there.
      const expected = {
        viewer: ['/console/logout', '/console/security/two-step', '/console/security/language'],
        developer: ['/console/developers/keys', `/console/payments/${paymentId}/refunds/review`],
        owner: ['/console/settings', '/console/team/invites'],
      }[role];
      for (const action of expected) expect([...actions]).toContain(action);
    },
  );

  it('lets every role log out', async () => {
    for (const role of ['viewer', 'developer', 'owner'] as const) {
      await members[role].post('/console/logout').expect(303);
      await members[role].get('/console/payments').expect(303).expect('Location', '/console/login');
    }
  });
});
